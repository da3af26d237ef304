package dev.canvasagent.model.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.anthropic.AnthropicMessagesProtocol;
import dev.canvasagent.model.gemini.GeminiProtocol;
import dev.canvasagent.model.openai.ChatCompletionsProtocol;
import dev.canvasagent.model.openai.ResponsesProtocol;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The turns a loop adds, as each protocol writes them, in the cases the two-step loop test does not
 * reach: an answer with calls and no text, a later user message, a call id Gemini sent itself, and
 * Anthropic without prompt caching.
 */
class ConversationRenderingTest {
  private static final JsonObject ARGS = new JsonObject().put("pattern", "TODO");
  private static final Turn.ToolCall CALL = new Turn.ToolCall("id_1", "canvas_grep", ARGS);
  private static final List<Turn> TURNS =
      List.of(
          new Turn.Assistant("", List.of(CALL)),
          new Turn.ToolResults(
              List.of(
                  Turn.ToolResult.success(CALL, new JsonObject().put("matches", new JsonArray())))),
          new Turn.User("now fix them"));

  private static ModelRequest request(String model) {
    return new ModelRequest(model, "system", "edit the doc", new JsonArray()).plus(TURNS);
  }

  @Test
  void anthropicLeavesOutEmptyTextAndCachesOnlyWhenAsked() {
    JsonArray messages =
        new AnthropicMessagesProtocol("http://x", "k", null)
            .request("claude", request("anthropic:claude"))
            .body()
            .getJsonArray("messages");
    assertEquals(4, messages.size());
    assertEquals(
        new JsonObject()
            .put("role", "assistant")
            .put(
                "content",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("type", "tool_use")
                            .put("id", "id_1")
                            .put("name", "canvas_grep")
                            .put("input", ARGS))),
        messages.getJsonObject(1));
    assertEquals(
        new JsonObject()
            .put("role", "user")
            .put(
                "content",
                new JsonArray()
                    .add(new JsonObject().put("type", "text").put("text", "now fix them"))),
        messages.getJsonObject(3),
        "no cache_control when prompt caching is off");
    JsonArray cached =
        new AnthropicMessagesProtocol("http://x", "k", "5m")
            .request("claude", request("anthropic:claude"))
            .body()
            .getJsonArray("messages");
    assertEquals(
        new JsonObject().put("type", "ephemeral").put("ttl", "5m"),
        cached
            .getJsonObject(3)
            .getJsonArray("content")
            .getJsonObject(0)
            .getJsonObject("cache_control"));
    assertNull(
        cached.getJsonObject(2).getJsonArray("content").getJsonObject(0).getValue("cache_control"));
  }

  @Test
  void chatSendsNullContentBesideToolCallsAndALaterUserMessageAsText() {
    JsonArray messages =
        ChatCompletionsProtocol.openai("http://x", "k")
            .request("gpt", request("openai:gpt"))
            .body()
            .getJsonArray("messages");
    assertEquals(5, messages.size());
    JsonObject assistant = messages.getJsonObject(2);
    assertEquals("assistant", assistant.getString("role"));
    assertEquals(true, assistant.containsKey("content"));
    assertNull(assistant.getValue("content"));
    assertEquals(
        "{\"pattern\":\"TODO\"}",
        assistant
            .getJsonArray("tool_calls")
            .getJsonObject(0)
            .getJsonObject("function")
            .getString("arguments"));
    assertEquals(
        new JsonObject()
            .put("role", "tool")
            .put("tool_call_id", "id_1")
            .put("content", "{\"matches\":[]}"),
        messages.getJsonObject(3));
    assertEquals(
        new JsonObject().put("role", "user").put("content", "now fix them"),
        messages.getJsonObject(4));
  }

  @Test
  void responsesSendsNoEmptyAssistantMessage() {
    JsonArray input =
        new ResponsesProtocol("http://x", "k")
            .request("gpt", request("openai-responses:gpt"))
            .body()
            .getJsonArray("input");
    assertEquals(4, input.size());
    assertEquals(
        new JsonObject()
            .put("type", "function_call")
            .put("call_id", "id_1")
            .put("name", "canvas_grep")
            .put("arguments", "{\"pattern\":\"TODO\"}"),
        input.getJsonObject(1));
    assertEquals(
        new JsonObject()
            .put("type", "function_call_output")
            .put("call_id", "id_1")
            .put("output", "{\"matches\":[]}"),
        input.getJsonObject(2));
    assertEquals(
        new JsonObject()
            .put("role", "user")
            .put(
                "content",
                new JsonArray()
                    .add(new JsonObject().put("type", "input_text").put("text", "now fix them"))),
        input.getJsonObject(3));
  }

  @Test
  void geminiSendsBackACallIdItSentItself() {
    JsonArray contents =
        new GeminiProtocol("http://x", "k")
            .request("gemini", request("google:gemini"))
            .body()
            .getJsonArray("contents");
    assertEquals(4, contents.size());
    JsonObject call = contents.getJsonObject(1).getJsonArray("parts").getJsonObject(0);
    assertEquals(
        new JsonObject()
            .put(
                "functionCall",
                new JsonObject().put("name", "canvas_grep").put("args", ARGS).put("id", "id_1")),
        call);
    assertFalse(call.containsKey("thoughtSignature"));
    assertEquals(
        new JsonObject()
            .put(
                "functionResponse",
                new JsonObject()
                    .put("name", "canvas_grep")
                    .put("response", new JsonObject().put("matches", new JsonArray()))
                    .put("id", "id_1")),
        contents.getJsonObject(2).getJsonArray("parts").getJsonObject(0));
    assertEquals(
        new JsonObject()
            .put("role", "user")
            .put("parts", new JsonArray().add(new JsonObject().put("text", "now fix them"))),
        contents.getJsonObject(3));
  }

  @Test
  void aToolResultHasEitherAResultOrAnError() {
    assertThrows(IllegalArgumentException.class, () -> new Turn.ToolResult("id", "t", null, null));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Turn.ToolResult("id", "t", new JsonObject(), "boom"));
  }
}
