package dev.canvasagent.model.openai;

import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.http.ProviderProtocol;
import dev.canvasagent.model.http.ProviderRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Chat Completions, {@code POST {base}/chat/completions} with {@code stream: true} and usage in the
 * last chunk: {@code openai:<model>} against OpenAI, and {@code openai-compatible:<model>} against
 * any server that speaks it (Ollama, llama.cpp, vLLM), where the key is optional and the answer
 * cap is the widely supported {@code max_tokens}. Later turns render as {@code assistant} messages
 * with {@code tool_calls} (arguments as a JSON string) and one {@code tool} message per result,
 * answering its {@code tool_call_id}; a failed call's result is its {@code Error: …} text.
 */
public final class ChatCompletionsProtocol implements ProviderProtocol {
  private final String baseUrl;
  private final String apiKey;
  private final boolean compatible;

  private ChatCompletionsProtocol(String baseUrl, String apiKey, boolean compatible) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.compatible = compatible;
  }

  public static ChatCompletionsProtocol openai(String baseUrl, String apiKey) {
    return new ChatCompletionsProtocol(baseUrl, apiKey, false);
  }

  /** {@code apiKey} may be empty: no Authorization header is sent then. */
  public static ChatCompletionsProtocol compatible(String baseUrl, String apiKey) {
    return new ChatCompletionsProtocol(baseUrl, apiKey, true);
  }

  @Override
  public ProviderRequest request(String model, ModelRequest request) {
    JsonArray content = new JsonArray();
    if (!request.contextText().isEmpty()) {
      content.add(text(request.contextText()));
    }
    if (request.screenshot() != null) {
      content.add(
          new JsonObject()
              .put("type", "image_url")
              .put("image_url", new JsonObject().put("url", request.screenshot().dataUrl())));
    }
    content.add(text(request.userMessage()));
    JsonArray messages =
        new JsonArray()
            .add(new JsonObject().put("role", "system").put("content", request.systemPrompt()))
            .add(new JsonObject().put("role", "user").put("content", content));
    for (Turn turn : request.turns()) {
      render(turn, messages);
    }
    JsonObject body =
        new JsonObject()
            .put("model", model)
            .put("stream", true)
            .put("stream_options", new JsonObject().put("include_usage", true))
            .put(
                compatible ? "max_tokens" : "max_completion_tokens",
                request.sampling().maxOutputTokens())
            .put("messages", messages);
    if (compatible || ReasoningModels.acceptsTemperature(model)) {
      body.put("temperature", request.sampling().temperature());
    }
    List<ModelRequest.Tool> declared = request.toolDeclarations();
    if (!declared.isEmpty()) {
      JsonArray tools = new JsonArray();
      for (ModelRequest.Tool tool : declared) {
        tools.add(
            new JsonObject()
                .put("type", "function")
                .put(
                    "function",
                    new JsonObject()
                        .put("name", tool.name())
                        .put("description", tool.description())
                        .put("parameters", tool.parameters())));
      }
      body.put("tools", tools);
      if (!compatible) {
        // Ollama documents tool_choice as unsupported; the compatible servers default to auto
        // anyway
        body.put("tool_choice", "auto").put("parallel_tool_calls", true);
      }
    }
    Map<String, String> headers =
        apiKey.isEmpty() ? Map.of() : Map.of("authorization", "Bearer " + apiKey);
    return new ProviderRequest(baseUrl + "/chat/completions", headers, body);
  }

  private static void render(Turn turn, JsonArray messages) {
    if (turn instanceof Turn.User user) {
      messages.add(new JsonObject().put("role", "user").put("content", user.text()));
    } else if (turn instanceof Turn.Assistant assistant) {
      // content is null, not "", beside tool calls: what the API itself returns for such a message
      JsonObject message =
          new JsonObject()
              .put("role", "assistant")
              .put(
                  "content",
                  assistant.text().isEmpty() && !assistant.calls().isEmpty()
                      ? null
                      : assistant.text());
      if (!assistant.calls().isEmpty()) {
        JsonArray calls = new JsonArray();
        for (Turn.ToolCall call : assistant.calls()) {
          calls.add(
              new JsonObject()
                  .put("id", call.callId())
                  .put("type", "function")
                  .put(
                      "function",
                      new JsonObject()
                          .put("name", call.name())
                          .put("arguments", call.arguments().encode())));
        }
        message.put("tool_calls", calls);
      }
      messages.add(message);
    } else if (turn instanceof Turn.ToolResults results) {
      for (Turn.ToolResult result : results.results()) {
        messages.add(
            new JsonObject()
                .put("role", "tool")
                .put("tool_call_id", result.callId())
                .put("content", result.text()));
      }
    }
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }
}
