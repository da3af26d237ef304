package dev.canvasagent.model.fake;

import dev.canvasagent.model.ModelEvent;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * An answer as a provider would stream it: the text in fragments, each tool call as a start, its
 * argument text in fragments and an end with the parsed arguments, then usage and a stop — or,
 * for a scripted failure, an error in place of usage and stop.
 */
final class FakeStream {
  private FakeStream() {}

  static Deque<ModelEvent> events(FakeAnswer answer, String message, int chunkChars) {
    Deque<ModelEvent> events = new ArrayDeque<>();
    for (String fragment : fragments(answer.text(), chunkChars)) {
      events.add(new ModelEvent.TextDelta(fragment));
    }
    long outputChars = answer.text().length();
    int ordinal = 0;
    for (FakeAnswer.ToolCall call : answer.calls()) {
      String callId = "fake_call_" + ordinal;
      String argumentsText = call.arguments().encode();
      outputChars += argumentsText.length();
      events.add(new ModelEvent.ToolCallStart(ordinal, callId, call.name()));
      for (String fragment : fragments(argumentsText, chunkChars)) {
        events.add(new ModelEvent.ToolCallDelta(ordinal, callId, fragment));
      }
      events.add(new ModelEvent.ToolCallEnd(ordinal, callId, call.name(), call.arguments().copy()));
      ordinal++;
    }
    JsonObject error = answer.error();
    if (error != null) {
      events.add(
          new ModelEvent.Error(
              error.getString("type", "api_error"),
              error.getString("message", "scripted failure"),
              error.getBoolean("retryable", false)));
      return events;
    }
    // About four characters a token, as providers count English.
    events.add(new ModelEvent.Usage(message.length() / 4 + 1, outputChars / 4 + 1));
    events.add(new ModelEvent.Stop(ordinal > 0 ? "tool_use" : "end_turn"));
    return events;
  }

  static List<String> fragments(String text, int chunkChars) {
    List<String> fragments = new ArrayList<>();
    for (int start = 0; start < text.length(); start += chunkChars) {
      fragments.add(text.substring(start, Math.min(text.length(), start + chunkChars)));
    }
    return fragments;
  }
}
