package dev.canvasagent.support;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Streamed answers written as the providers write them (the shapes of the recorded fixtures in
 * {@code providers/}), for a test's own tool calls or text: OpenAI Chat Completions chunks with
 * {@code tool_calls}, and Anthropic Messages events with text or {@code tool_use} blocks. Arguments
 * and text arrive in several deltas, cut mid-token, as real streams cut them.
 */
public final class ProviderStreams {
  /** One tool call: the name the model gave and its arguments. */
  public record Call(String name, JsonObject arguments) {}

  private static final int DELTA_CHARS = 40;

  private ProviderStreams() {}

  /** A Chat Completions stream of {@code calls}, ending {@code finish_reason: tool_calls}. */
  public static byte[] openAiToolCalls(List<Call> calls) {
    StringBuilder sse = new StringBuilder();
    chunk(sse, new JsonObject().put("role", "assistant").put("content", ""), null);
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      JsonObject start =
          new JsonObject()
              .put("index", i)
              .put("id", "call_" + i)
              .put("type", "function")
              .put("function", new JsonObject().put("name", call.name()).put("arguments", ""));
      chunk(sse, new JsonObject().put("tool_calls", new JsonArray().add(start)), null);
      for (String piece : pieces(call.arguments().encode())) {
        JsonObject delta =
            new JsonObject()
                .put("index", i)
                .put("function", new JsonObject().put("arguments", piece));
        chunk(sse, new JsonObject().put("tool_calls", new JsonArray().add(delta)), null);
      }
    }
    chunk(sse, new JsonObject(), "tool_calls");
    sse.append("data: ")
        .append(
            chatChunk()
                .put("choices", new JsonArray())
                .put(
                    "usage",
                    new JsonObject()
                        .put("prompt_tokens", 800)
                        .put("completion_tokens", 90)
                        .put("total_tokens", 890))
                .encode())
        .append("\n\ndata: [DONE]\n\n");
    return sse.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A Messages stream of one text block, ending {@code end_turn}. */
  public static byte[] anthropicText(String text) {
    StringBuilder sse = messageStart();
    event(
        sse,
        "content_block_start",
        blockStart(0, new JsonObject().put("type", "text").put("text", "")));
    for (String piece : pieces(text)) {
      event(
          sse,
          "content_block_delta",
          blockDelta(0, new JsonObject().put("type", "text_delta").put("text", piece)));
    }
    event(
        sse,
        "content_block_stop",
        new JsonObject().put("type", "content_block_stop").put("index", 0));
    return messageEnd(sse, "end_turn");
  }

  /** A Messages stream of one {@code tool_use} block per call, ending {@code tool_use}. */
  public static byte[] anthropicToolUses(List<Call> calls) {
    StringBuilder sse = messageStart();
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      event(
          sse,
          "content_block_start",
          blockStart(
              i,
              new JsonObject()
                  .put("type", "tool_use")
                  .put("id", "toolu_" + i)
                  .put("name", call.name())
                  .put("input", new JsonObject())));
      for (String piece : pieces(call.arguments().encode())) {
        event(
            sse,
            "content_block_delta",
            blockDelta(
                i, new JsonObject().put("type", "input_json_delta").put("partial_json", piece)));
      }
      event(
          sse,
          "content_block_stop",
          new JsonObject().put("type", "content_block_stop").put("index", i));
    }
    return messageEnd(sse, "tool_use");
  }

  private static void chunk(StringBuilder sse, JsonObject delta, String finishReason) {
    JsonObject choice =
        new JsonObject().put("index", 0).put("delta", delta).put("finish_reason", finishReason);
    sse.append("data: ")
        .append(chatChunk().put("choices", new JsonArray().add(choice)).putNull("usage").encode())
        .append("\n\n");
  }

  private static JsonObject chatChunk() {
    return new JsonObject()
        .put("id", "chatcmpl-stub")
        .put("object", "chat.completion.chunk")
        .put("created", 1767225600)
        .put("model", "gpt-test");
  }

  private static StringBuilder messageStart() {
    StringBuilder sse = new StringBuilder();
    JsonObject message =
        new JsonObject()
            .put("id", "msg_stub")
            .put("type", "message")
            .put("role", "assistant")
            .put("model", "claude-test")
            .put("content", new JsonArray())
            .putNull("stop_reason")
            .putNull("stop_sequence")
            .put("usage", new JsonObject().put("input_tokens", 800).put("output_tokens", 1));
    event(
        sse,
        "message_start",
        new JsonObject().put("type", "message_start").put("message", message));
    return sse;
  }

  private static byte[] messageEnd(StringBuilder sse, String stopReason) {
    event(
        sse,
        "message_delta",
        new JsonObject()
            .put("type", "message_delta")
            .put("delta", new JsonObject().put("stop_reason", stopReason).putNull("stop_sequence"))
            .put("usage", new JsonObject().put("output_tokens", 90)));
    event(sse, "message_stop", new JsonObject().put("type", "message_stop"));
    return sse.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static JsonObject blockStart(int index, JsonObject block) {
    return new JsonObject()
        .put("type", "content_block_start")
        .put("index", index)
        .put("content_block", block);
  }

  private static JsonObject blockDelta(int index, JsonObject delta) {
    return new JsonObject()
        .put("type", "content_block_delta")
        .put("index", index)
        .put("delta", delta);
  }

  private static void event(StringBuilder sse, String name, JsonObject data) {
    sse.append("event: ").append(name).append("\ndata: ").append(data.encode()).append("\n\n");
  }

  /** The text in pieces of {@link #DELTA_CHARS}, as deltas cut it (inside tokens and strings). */
  private static List<String> pieces(String text) {
    List<String> pieces = new java.util.ArrayList<>();
    for (int from = 0; from < text.length(); from += DELTA_CHARS) {
      pieces.add(text.substring(from, Math.min(text.length(), from + DELTA_CHARS)));
    }
    return pieces;
  }
}
