package dev.canvasagent.model.http;

import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * One streaming POST to a provider: its absolute URL, its headers (the API key among them, so this
 * record is never logged whole) and its JSON body.
 */
public record ProviderRequest(String url, Map<String, String> headers, JsonObject body) {
  public ProviderRequest {
    headers = Map.copyOf(headers);
  }

  @Override
  public String toString() {
    return "ProviderRequest[url=" + url + ", headers=" + headers.keySet() + "]";
  }
}
