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
 * {@code openai-responses:<model>}: the Responses API, {@code POST {base}/responses} with {@code
 * stream: true}, the system prompt as {@code instructions}, flat function tools, nothing stored.
 * Since nothing is stored there is no {@code previous_response_id}: later turns are sent whole as
 * input items, an assistant {@code message}, one {@code function_call} item per call ({@code
 * call_id}, {@code name}, arguments as a JSON string) and one {@code function_call_output} per
 * result ({@code call_id}, {@code output}: the result's JSON, or its {@code Error: …} text).
 */
public final class ResponsesProtocol implements ProviderProtocol {
  private final String baseUrl;
  private final String apiKey;

  public ResponsesProtocol(String baseUrl, String apiKey) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
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
              .put("type", "input_image")
              .put("image_url", request.screenshot().dataUrl()));
    }
    content.add(text(request.userMessage()));
    JsonObject body =
        new JsonObject()
            .put("model", model)
            .put("stream", true)
            .put("store", false)
            .put("instructions", request.systemPrompt())
            .put("max_output_tokens", request.sampling().maxOutputTokens())
            .put("input", input(content, request.turns()));
    if (ReasoningModels.acceptsTemperature(model)) {
      body.put("temperature", request.sampling().temperature());
    }
    List<ModelRequest.Tool> declared = request.toolDeclarations();
    if (!declared.isEmpty()) {
      JsonArray tools = new JsonArray();
      for (ModelRequest.Tool tool : declared) {
        tools.add(
            new JsonObject()
                .put("type", "function")
                .put("name", tool.name())
                .put("description", tool.description())
                .put("parameters", tool.parameters())
                .put("strict", false));
      }
      body.put("tools", tools).put("tool_choice", "auto").put("parallel_tool_calls", true);
    }
    return new ProviderRequest(
        baseUrl + "/responses", Map.of("authorization", "Bearer " + apiKey), body);
  }

  private static JsonArray input(JsonArray firstTurn, List<Turn> turns) {
    JsonArray input =
        new JsonArray().add(new JsonObject().put("role", "user").put("content", firstTurn));
    for (Turn turn : turns) {
      if (turn instanceof Turn.User user) {
        input.add(
            new JsonObject()
                .put("role", "user")
                .put("content", new JsonArray().add(text(user.text()))));
      } else if (turn instanceof Turn.Assistant assistant) {
        if (!assistant.text().isEmpty()) {
          input.add(
              new JsonObject()
                  .put("type", "message")
                  .put("role", "assistant")
                  .put(
                      "content",
                      new JsonArray()
                          .add(
                              new JsonObject()
                                  .put("type", "output_text")
                                  .put("text", assistant.text()))));
        }
        for (Turn.ToolCall call : assistant.calls()) {
          input.add(
              new JsonObject()
                  .put("type", "function_call")
                  .put("call_id", call.callId())
                  .put("name", call.name())
                  .put("arguments", call.arguments().encode()));
        }
      } else if (turn instanceof Turn.ToolResults results) {
        for (Turn.ToolResult result : results.results()) {
          input.add(
              new JsonObject()
                  .put("type", "function_call_output")
                  .put("call_id", result.callId())
                  .put("output", result.text()));
        }
      }
    }
    return input;
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("type", "input_text").put("text", text);
  }
}
