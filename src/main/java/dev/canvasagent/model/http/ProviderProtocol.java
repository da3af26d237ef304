package dev.canvasagent.model.http;

import dev.canvasagent.model.ModelRequest;

/**
 * How one provider's request is written: URL, headers and JSON body. Its answer's stream is read by
 * the normalizer its {@link HttpProvider} declaration pairs it with.
 */
public interface ProviderProtocol {
  /** The request for {@code model} (the key's part after {@code <provider>:}). */
  ProviderRequest request(String model, ModelRequest request);
}
