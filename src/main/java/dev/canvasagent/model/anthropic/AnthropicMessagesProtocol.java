package dev.canvasagent.model.anthropic;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.model.http.ProviderProtocol;
import dev.canvasagent.model.http.ProviderRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code anthropic:<model>}: the Messages API, {@code POST {base}/v1/messages} with {@code stream:
 * true}. The system prompt and the tools are the stable prefix, so both carry {@code cache_control}
 * (on the system block and on the last tool) unless prompt caching is off ({@code cacheTtl} null).
 */
public final class AnthropicMessagesProtocol implements ProviderProtocol {
  public static final String VERSION = "2023-06-01";

  private final String baseUrl;
  private final String apiKey;
  private final String cacheTtl;

  /** {@code cacheTtl}: {@code 5m} or {@code 1h}, or null for no prompt caching. */
  public AnthropicMessagesProtocol(String baseUrl, String apiKey, String cacheTtl) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.cacheTtl = cacheTtl;
  }

  @Override
  public String id() {
    return "anthropic";
  }

  @Override
  public ProviderRequest request(String model, ModelRequest request) {
    JsonObject system = new JsonObject().put("type", "text").put("text", request.systemPrompt());
    cache(system);
    JsonArray content = new JsonArray();
    if (!request.contextText().isEmpty()) {
      content.add(text(request.contextText()));
    }
    if (request.screenshot() != null) {
      content.add(new JsonObject().put("type", "image").put("source", new JsonObject()
          .put("type", "base64")
          .put("media_type", request.screenshot().mediaType())
          .put("data", request.screenshot().base64())));
    }
    content.add(text(request.userMessage()));
    JsonObject body = new JsonObject()
        .put("model", model)
        .put("max_tokens", request.sampling().maxOutputTokens())
        // Anthropic's temperature range is 0..1
        .put("temperature", Math.min(1.0, request.sampling().temperature()))
        .put("stream", true)
        .put("system", new JsonArray().add(system))
        .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", content)));
    List<ModelRequest.Tool> declared = request.toolDeclarations();
    if (!declared.isEmpty()) {
      JsonArray tools = new JsonArray();
      for (ModelRequest.Tool tool : declared) {
        tools.add(new JsonObject()
            .put("name", tool.name())
            .put("description", tool.description())
            .put("input_schema", tool.parameters()));
      }
      cache(tools.getJsonObject(tools.size() - 1));
      body.put("tools", tools).put("tool_choice", new JsonObject().put("type", "auto"));
    }
    return new ProviderRequest(baseUrl + "/v1/messages",
        Map.of("x-api-key", apiKey, "anthropic-version", VERSION), body);
  }

  @Override
  public StreamNormalizer normalizer(Consumer<ModelEvent> sink) {
    return new AnthropicStreamNormalizer(sink);
  }

  private void cache(JsonObject block) {
    if (cacheTtl != null) {
      block.put("cache_control", new JsonObject().put("type", "ephemeral").put("ttl", cacheTtl));
    }
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }
}
