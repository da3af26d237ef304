package dev.canvasagent.model.gemini;

import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.http.ProviderProtocol;
import dev.canvasagent.model.http.ProviderRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code google:<model>}: Gemini, {@code POST {base}/v1beta/models/<model>:streamGenerateContent?alt=sse}
 * with the key in {@code x-goog-api-key}. Tools are declared with {@code parametersJsonSchema}
 * (JSON Schema, mutually exclusive with the OpenAPI-style {@code parameters}), converted by
 * {@link GeminiSchema}. Later turns render as {@code model} contents with {@code functionCall} parts
 * ({@code args} as an object) and {@code user} contents with one {@code functionResponse} part per
 * result ({@code name}, {@code response}: the result object, or {@code {"error": …}}); a call id goes
 * back only when Gemini sent one, not when the normalizer made it up, and a call's {@code
 * thoughtSignature} goes back on its part (mandatory for Gemini 3 function calling).
 */
public final class GeminiProtocol implements ProviderProtocol {
  private final String baseUrl;
  private final String apiKey;

  public GeminiProtocol(String baseUrl, String apiKey) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
  }

  @Override
  public ProviderRequest request(String model, ModelRequest request) {
    JsonArray parts = new JsonArray();
    if (!request.contextText().isEmpty()) {
      parts.add(new JsonObject().put("text", request.contextText()));
    }
    if (request.screenshot() != null) {
      parts.add(
          new JsonObject()
              .put(
                  "inlineData",
                  new JsonObject()
                      .put("mimeType", request.screenshot().mediaType())
                      .put("data", request.screenshot().base64())));
    }
    parts.add(new JsonObject().put("text", request.userMessage()));
    JsonObject body =
        new JsonObject()
            .put(
                "systemInstruction",
                new JsonObject()
                    .put(
                        "parts",
                        new JsonArray().add(new JsonObject().put("text", request.systemPrompt()))))
            .put("contents", contents(parts, request.turns()))
            .put(
                "generationConfig",
                new JsonObject()
                    .put("temperature", request.sampling().temperature())
                    .put("maxOutputTokens", request.sampling().maxOutputTokens()));
    List<ModelRequest.Tool> declared = request.toolDeclarations();
    if (!declared.isEmpty()) {
      JsonArray declarations = new JsonArray();
      for (ModelRequest.Tool tool : declared) {
        declarations.add(
            new JsonObject()
                .put("name", tool.name())
                .put("description", tool.description())
                .put("parametersJsonSchema", GeminiSchema.convert(tool.parameters())));
      }
      body.put(
              "tools",
              new JsonArray().add(new JsonObject().put("functionDeclarations", declarations)))
          .put(
              "toolConfig",
              new JsonObject().put("functionCallingConfig", new JsonObject().put("mode", "AUTO")));
    }
    String name = model.startsWith("models/") ? model.substring("models/".length()) : model;
    String url =
        baseUrl
            + "/v1beta/models/"
            + URLEncoder.encode(name, StandardCharsets.UTF_8)
            + ":streamGenerateContent?alt=sse";
    return new ProviderRequest(url, Map.of("x-goog-api-key", apiKey), body);
  }

  private static JsonArray contents(JsonArray firstTurn, List<Turn> turns) {
    JsonArray contents =
        new JsonArray().add(new JsonObject().put("role", "user").put("parts", firstTurn));
    for (Turn turn : turns) {
      JsonArray parts = new JsonArray();
      String role = "user";
      if (turn instanceof Turn.User user) {
        parts.add(new JsonObject().put("text", user.text()));
      } else if (turn instanceof Turn.Assistant assistant) {
        role = "model";
        if (!assistant.text().isEmpty()) {
          parts.add(new JsonObject().put("text", assistant.text()));
        }
        for (Turn.ToolCall call : assistant.calls()) {
          JsonObject functionCall =
              new JsonObject().put("name", call.name()).put("args", call.arguments());
          withId(functionCall, call.callId());
          JsonObject part = new JsonObject().put("functionCall", functionCall);
          if (call.signature() != null) {
            part.put("thoughtSignature", call.signature());
          }
          parts.add(part);
        }
      } else if (turn instanceof Turn.ToolResults results) {
        for (Turn.ToolResult result : results.results()) {
          JsonObject response =
              result.isError() ? new JsonObject().put("error", result.error()) : result.result();
          JsonObject functionResponse =
              new JsonObject().put("name", result.name()).put("response", response);
          withId(functionResponse, result.callId());
          parts.add(new JsonObject().put("functionResponse", functionResponse));
        }
      }
      if (!parts.isEmpty()) {
        contents.add(new JsonObject().put("role", role).put("parts", parts));
      }
    }
    return contents;
  }

  private static void withId(JsonObject part, String callId) {
    if (!callId.startsWith(GeminiStreamNormalizer.GENERATED_ID_PREFIX)) {
      part.put("id", callId);
    }
  }
}
