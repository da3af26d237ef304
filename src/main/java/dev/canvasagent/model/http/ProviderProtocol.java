package dev.canvasagent.model.http;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.StreamNormalizer;
import java.util.function.Consumer;

/** What differs between providers: how a request is written and how the answer's stream is read. */
public interface ProviderProtocol {
  /** The provider part of the registry key, e.g. {@code anthropic}. */
  String id();

  /** The request for {@code model} (the key's part after {@code id:}). */
  ProviderRequest request(String model, ModelRequest request);

  /** A fresh normalizer for one response body. */
  StreamNormalizer normalizer(Consumer<ModelEvent> sink);
}
