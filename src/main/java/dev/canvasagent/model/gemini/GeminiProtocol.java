package dev.canvasagent.model.gemini;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.model.http.ProviderProtocol;
import dev.canvasagent.model.http.ProviderRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code google:<model>}: Gemini, {@code POST {base}/v1beta/models/<model>:streamGenerateContent?alt=sse}
 * with the key in {@code x-goog-api-key}. Tools are declared with {@code parametersJsonSchema}
 * (JSON Schema, mutually exclusive with the OpenAPI-style {@code parameters}), converted by
 * {@link GeminiSchema}.
 */
public final class GeminiProtocol implements ProviderProtocol {
  private final String baseUrl;
  private final String apiKey;

  public GeminiProtocol(String baseUrl, String apiKey) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
  }

  @Override
  public String id() {
    return "google";
  }

  @Override
  public ProviderRequest request(String model, ModelRequest request) {
    JsonArray parts = new JsonArray();
    if (!request.contextText().isEmpty()) {
      parts.add(new JsonObject().put("text", request.contextText()));
    }
    if (request.screenshot() != null) {
      parts.add(new JsonObject().put("inlineData", new JsonObject()
          .put("mimeType", request.screenshot().mediaType())
          .put("data", request.screenshot().base64())));
    }
    parts.add(new JsonObject().put("text", request.userMessage()));
    JsonObject body = new JsonObject()
        .put("systemInstruction", new JsonObject().put("parts",
            new JsonArray().add(new JsonObject().put("text", request.systemPrompt()))))
        .put("contents", new JsonArray().add(new JsonObject().put("role", "user").put("parts", parts)))
        .put("generationConfig", new JsonObject()
            .put("temperature", request.sampling().temperature())
            .put("maxOutputTokens", request.sampling().maxOutputTokens()));
    List<ModelRequest.Tool> declared = request.toolDeclarations();
    if (!declared.isEmpty()) {
      JsonArray declarations = new JsonArray();
      for (ModelRequest.Tool tool : declared) {
        declarations.add(new JsonObject()
            .put("name", tool.name())
            .put("description", tool.description())
            .put("parametersJsonSchema", GeminiSchema.convert(tool.parameters())));
      }
      body.put("tools", new JsonArray().add(new JsonObject().put("functionDeclarations", declarations)))
          .put("toolConfig", new JsonObject().put("functionCallingConfig", new JsonObject().put("mode", "AUTO")));
    }
    String name = model.startsWith("models/") ? model.substring("models/".length()) : model;
    String url = baseUrl + "/v1beta/models/" + URLEncoder.encode(name, StandardCharsets.UTF_8)
        + ":streamGenerateContent?alt=sse";
    return new ProviderRequest(url, Map.of("x-goog-api-key", apiKey), body);
  }

  @Override
  public StreamNormalizer normalizer(Consumer<ModelEvent> sink) {
    return new GeminiStreamNormalizer(sink);
  }
}
