package dev.canvasagent.model.anthropic;

import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.http.ProviderProtocol;
import dev.canvasagent.model.http.ProviderRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * {@code anthropic:<model>}: the Messages API, {@code POST {base}/v1/messages} with {@code stream:
 * true}. The system prompt and the tools are the stable prefix, so both carry {@code cache_control}
 * (on the system block and on the last tool) unless prompt caching is off ({@code cacheTtl} null).
 * Later turns render as {@code assistant} messages with {@code tool_use} blocks and {@code user}
 * messages with {@code tool_result} blocks ({@code is_error} for a failed call); the last block of a
 * multi-turn conversation carries a third {@code cache_control}, so each step of a tool loop reads
 * the previous step's prefix from the cache.
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
  public ProviderRequest request(String model, ModelRequest request) {
    JsonObject system = new JsonObject().put("type", "text").put("text", request.systemPrompt());
    cache(system);
    JsonArray content = new JsonArray();
    if (!request.contextText().isEmpty()) {
      content.add(text(request.contextText()));
    }
    if (request.screenshot() != null) {
      content.add(
          new JsonObject()
              .put("type", "image")
              .put(
                  "source",
                  new JsonObject()
                      .put("type", "base64")
                      .put("media_type", request.screenshot().mediaType())
                      .put("data", request.screenshot().base64())));
    }
    content.add(text(request.userMessage()));
    JsonObject body =
        new JsonObject()
            .put("model", model)
            .put("max_tokens", request.sampling().maxOutputTokens())
            // Anthropic's temperature range is 0..1
            .put("temperature", Math.min(1.0, request.sampling().temperature()))
            .put("stream", true)
            .put("system", new JsonArray().add(system))
            .put("messages", messages(content, request.turns()));
    List<ModelRequest.Tool> declared = request.toolDeclarations();
    if (!declared.isEmpty()) {
      JsonArray tools = new JsonArray();
      for (ModelRequest.Tool tool : declared) {
        tools.add(
            new JsonObject()
                .put("name", tool.name())
                .put("description", tool.description())
                .put("input_schema", tool.parameters()));
      }
      cache(tools.getJsonObject(tools.size() - 1));
      body.put("tools", tools).put("tool_choice", new JsonObject().put("type", "auto"));
    }
    return new ProviderRequest(
        baseUrl + "/v1/messages", Map.of("x-api-key", apiKey, "anthropic-version", VERSION), body);
  }

  private JsonArray messages(JsonArray firstTurn, List<Turn> turns) {
    JsonArray messages =
        new JsonArray().add(new JsonObject().put("role", "user").put("content", firstTurn));
    for (Turn turn : turns) {
      JsonArray content = new JsonArray();
      String role = "user";
      if (turn instanceof Turn.User user) {
        content.add(text(user.text()));
      } else if (turn instanceof Turn.Assistant assistant) {
        role = "assistant";
        if (!assistant.text().isEmpty()) {
          content.add(text(assistant.text())); // Anthropic refuses empty text blocks
        }
        for (Turn.ToolCall call : assistant.calls()) {
          content.add(
              new JsonObject()
                  .put("type", "tool_use")
                  .put("id", call.callId())
                  .put("name", call.name())
                  .put("input", call.arguments()));
        }
      } else if (turn instanceof Turn.ToolResults results) {
        for (Turn.ToolResult result : results.results()) {
          JsonObject block =
              new JsonObject()
                  .put("type", "tool_result")
                  .put("tool_use_id", result.callId())
                  .put("content", result.isError() ? result.error() : result.result().encode());
          if (result.isError()) {
            block.put("is_error", true);
          }
          content.add(block);
        }
      }
      if (!content.isEmpty()) {
        messages.add(new JsonObject().put("role", role).put("content", content));
      }
    }
    if (!turns.isEmpty()) {
      JsonArray last = messages.getJsonObject(messages.size() - 1).getJsonArray("content");
      cache(last.getJsonObject(last.size() - 1));
    }
    return messages;
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
