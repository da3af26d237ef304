package dev.canvasagent.model.fake;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What {@code debug/fake} answers, before it is streamed: text, then tool calls, or text then a
 * provider error. A scripted scenario and the planner both produce one.
 *
 * @param error {@code {type, message, retryable}} for a scripted failure, or null
 */
public record FakeAnswer(String text, List<ToolCall> calls, JsonObject error) {
  public FakeAnswer {
    text = text == null ? "" : text;
    calls = List.copyOf(calls);
  }

  /** One tool call: an action of the catalog and its arguments. */
  public record ToolCall(String name, JsonObject arguments) {}

  /** An answer in words only, with no action. */
  public static FakeAnswer say(String text) {
    return new FakeAnswer(text, List.of(), null);
  }

  public static FakeAnswer act(String text, List<ToolCall> calls) {
    return new FakeAnswer(text, calls, null);
  }
}
