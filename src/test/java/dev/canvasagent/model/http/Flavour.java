package dev.canvasagent.model.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.model.ProviderCatalog;
import dev.canvasagent.model.anthropic.AnthropicMessagesProtocol;
import dev.canvasagent.model.gemini.GeminiProtocol;
import dev.canvasagent.model.openai.ChatCompletionsProtocol;
import dev.canvasagent.model.openai.ResponsesProtocol;
import dev.canvasagent.security.CredentialRedactor;
import dev.canvasagent.support.StubProvider;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One of the five HTTP providers as the tests drive it: how to point it at the stub, the model key,
 * its answer fixture (test resources {@code providers/http/}), an in-band error fixture, the body
 * of a typical 401, and what its request must look like.
 */
record Flavour(
    String name,
    Function<String, ProviderProtocol> protocol,
    String model,
    String answer,
    String midStreamError,
    String unauthorized,
    Consumer<StubProvider.Received> checkRequest) {

  static final int TOOL_COUNT = ActionCatalog.standard().describe().size();

  @Override
  public String toString() {
    return name;
  }

  byte[] answerBytes() {
    return ProviderCalls.resource("http/" + answer);
  }

  /** The provider pointed at {@code base}, its stream read by the normalizer its declaration names. */
  HttpModelProvider provider(
      Vertx vertx, HttpClient client, String base, Limits limits, Optional<String> missingSetting) {
    HttpProvider declared =
        ProviderCatalog.ALL.stream()
            .filter(provider -> provider.id().equals(name))
            .findFirst()
            .orElseThrow();
    return new HttpModelProvider(
        vertx,
        client,
        declared.id(),
        protocol.apply(base),
        declared.normalizer(),
        limits,
        missingSetting,
        CredentialRedactor.patternsOnly());
  }

  static List<Flavour> all() {
    return List.of(
        new Flavour(
            "anthropic",
            base -> new AnthropicMessagesProtocol(base, "sk-ant-stub", "1h"),
            "anthropic:claude-test",
            "anthropic-answer.sse",
            "anthropic-error-overloaded.sse",
            "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}",
            Flavour::checkAnthropic),
        new Flavour(
            "openai",
            base -> ChatCompletionsProtocol.openai(base + "/v1", "sk-stub"),
            "openai:gpt-test",
            "openai-answer.sse",
            "openai-chat-error-midstream.sse",
            "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}",
            received -> checkChat(received, true)),
        new Flavour(
            "openai-responses",
            base -> new ResponsesProtocol(base + "/v1", "sk-stub"),
            "openai-responses:gpt-test",
            "openai-responses-answer.sse",
            "openai-responses-error.sse",
            "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}",
            Flavour::checkResponses),
        new Flavour(
            "google",
            base -> new GeminiProtocol(base, "AIza-stub"),
            "google:gemini-test",
            "gemini-answer.sse",
            "gemini-error-midstream.sse",
            "{\n  \"error\": {\n    \"code\": 401,\n    \"message\": \"API key not valid.\",\n    \"status\": \"UNAUTHENTICATED\"\n  }\n}\n",
            Flavour::checkGemini),
        new Flavour(
            "openai-compatible",
            base -> ChatCompletionsProtocol.compatible(base + "/v1", ""),
            "openai-compatible:qwen-test:7b",
            "openai-compatible-answer.sse",
            "llamacpp-error-midstream.sse",
            "{\"error\":{\"code\":401,\"message\":\"Invalid API Key\",\"type\":\"authentication_error\"}}",
            received -> checkChat(received, false)));
  }

  private static void checkAnthropic(StubProvider.Received received) {
    assertEquals("/v1/messages", received.uri());
    assertEquals("sk-ant-stub", received.headers().get("x-api-key"));
    assertEquals("2023-06-01", received.headers().get("anthropic-version"));
    JsonObject body = received.body();
    assertEquals("claude-test", body.getString("model"));
    assertEquals(true, body.getBoolean("stream"));
    assertEquals(1024, body.getInteger("max_tokens"));
    JsonObject system = body.getJsonArray("system").getJsonObject(0);
    assertEquals("You draw on a whiteboard.", system.getString("text"));
    JsonObject ephemeral = new JsonObject().put("type", "ephemeral").put("ttl", "1h");
    assertEquals(ephemeral, system.getJsonObject("cache_control"));
    JsonArray tools = body.getJsonArray("tools");
    assertEquals(TOOL_COUNT, tools.size());
    assertEquals(
        ephemeral,
        tools.getJsonObject(tools.size() - 1).getJsonObject("cache_control"),
        "the last tool ends the cached prefix");
    assertNull(tools.getJsonObject(0).getJsonObject("cache_control"));
    assertToolSchemas(
        tools.stream().map(t -> ((JsonObject) t).getJsonObject("input_schema")).toList());
    JsonArray content = body.getJsonArray("messages").getJsonObject(0).getJsonArray("content");
    assertEquals("text", content.getJsonObject(0).getString("type"));
    assertEquals(
        new JsonObject()
            .put("type", "base64")
            .put("media_type", "image/png")
            .put("data", ProviderCalls.SCREENSHOT.base64()),
        content.getJsonObject(1).getJsonObject("source"));
    assertEquals("draw two shapes", content.getJsonObject(2).getString("text"));
  }

  private static void checkChat(StubProvider.Received received, boolean openai) {
    assertEquals("/v1/chat/completions", received.uri());
    if (openai) {
      assertEquals("Bearer sk-stub", received.headers().get("authorization"));
    } else {
      assertNull(
          received.headers().get("authorization"), "no key configured: no Authorization header");
    }
    JsonObject body = received.body();
    assertEquals(openai ? "gpt-test" : "qwen-test:7b", body.getString("model"));
    assertEquals(true, body.getBoolean("stream"));
    assertEquals(new JsonObject().put("include_usage", true), body.getJsonObject("stream_options"));
    assertEquals(1024, body.getInteger(openai ? "max_completion_tokens" : "max_tokens"));
    JsonArray messages = body.getJsonArray("messages");
    assertEquals(
        new JsonObject().put("role", "system").put("content", "You draw on a whiteboard."),
        messages.getJsonObject(0));
    JsonArray content = messages.getJsonObject(1).getJsonArray("content");
    assertEquals("image_url", content.getJsonObject(1).getString("type"));
    assertEquals(
        ProviderCalls.SCREENSHOT.dataUrl(),
        content.getJsonObject(1).getJsonObject("image_url").getString("url"));
    assertEquals("draw two shapes", content.getJsonObject(2).getString("text"));
    JsonArray tools = body.getJsonArray("tools");
    assertEquals(TOOL_COUNT, tools.size());
    assertEquals("function", tools.getJsonObject(0).getString("type"));
    assertToolSchemas(
        tools.stream()
            .map(t -> ((JsonObject) t).getJsonObject("function").getJsonObject("parameters"))
            .toList());
  }

  private static void checkResponses(StubProvider.Received received) {
    assertEquals("/v1/responses", received.uri());
    assertEquals("Bearer sk-stub", received.headers().get("authorization"));
    JsonObject body = received.body();
    assertEquals("gpt-test", body.getString("model"));
    assertEquals(true, body.getBoolean("stream"));
    assertEquals("You draw on a whiteboard.", body.getString("instructions"));
    assertEquals(1024, body.getInteger("max_output_tokens"));
    JsonArray content = body.getJsonArray("input").getJsonObject(0).getJsonArray("content");
    assertEquals(
        new JsonObject()
            .put("type", "input_image")
            .put("image_url", ProviderCalls.SCREENSHOT.dataUrl()),
        content.getJsonObject(1));
    assertEquals("draw two shapes", content.getJsonObject(2).getString("text"));
    JsonArray tools = body.getJsonArray("tools");
    assertEquals(TOOL_COUNT, tools.size());
    assertEquals("create_shape", tools.getJsonObject(0).getString("name"), "flat function tools");
    assertToolSchemas(
        tools.stream().map(t -> ((JsonObject) t).getJsonObject("parameters")).toList());
  }

  private static void checkGemini(StubProvider.Received received) {
    assertEquals("/v1beta/models/gemini-test:streamGenerateContent?alt=sse", received.uri());
    assertEquals("AIza-stub", received.headers().get("x-goog-api-key"));
    JsonObject body = received.body();
    assertEquals(
        "You draw on a whiteboard.",
        body.getJsonObject("systemInstruction")
            .getJsonArray("parts")
            .getJsonObject(0)
            .getString("text"));
    JsonArray parts = body.getJsonArray("contents").getJsonObject(0).getJsonArray("parts");
    assertEquals(
        new JsonObject()
            .put("mimeType", "image/png")
            .put("data", ProviderCalls.SCREENSHOT.base64()),
        parts.getJsonObject(1).getJsonObject("inlineData"));
    assertEquals("draw two shapes", parts.getJsonObject(2).getString("text"));
    assertEquals(1024, body.getJsonObject("generationConfig").getInteger("maxOutputTokens"));
    JsonArray declarations =
        body.getJsonArray("tools").getJsonObject(0).getJsonArray("functionDeclarations");
    assertEquals(TOOL_COUNT, declarations.size());
    for (Object item : declarations) {
      JsonObject declaration = (JsonObject) item;
      assertFalse(
          declaration.containsKey("parameters"),
          "parameters and parametersJsonSchema exclude each other");
      String schema = declaration.getJsonObject("parametersJsonSchema").encode();
      for (String refused :
          List.of("$ref", "definitions", "$schema", "examples", "pattern", "maxLength")) {
        assertFalse(
            schema.contains("\"" + refused + "\""),
            declaration.getString("name") + " still has " + refused);
      }
    }
  }

  private static void assertToolSchemas(List<JsonObject> schemas) {
    for (JsonObject schema : schemas) {
      assertEquals("object", schema.getString("type"));
      assertFalse(schema.containsKey("$schema"));
    }
    assertTrue(
        schemas.get(0).getJsonObject("properties").containsKey("type"),
        "create_shape's own schema");
  }
}
