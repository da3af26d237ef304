package dev.canvasagent.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * An Anthropic Messages streaming answer made of tool calls, as the API writes it: one server-sent
 * event per {@code message_start}, content block start, argument fragment ({@code input_json_delta}),
 * block stop, {@code message_delta} and {@code message_stop}.
 *
 * @param events each event's bytes, blank line included, in order
 * @param firstActionEnd the index of the event that closes the first tool call (its arguments are complete)
 */
record AnthropicWire(List<byte[]> events, int firstActionEnd) {
  static AnthropicWire of(
      List<BenchActions.Action> actions, int minFragment, int maxFragment, long seed) {
    Random random = new Random(seed);
    List<byte[]> events = new ArrayList<>();
    events.add(
        event(
            "message_start",
            new JsonObject()
                .put("type", "message_start")
                .put(
                    "message",
                    new JsonObject()
                        .put("id", "msg_bench")
                        .put("type", "message")
                        .put("role", "assistant")
                        .put("model", "bench")
                        .put("content", new JsonArray())
                        .putNull("stop_reason")
                        .put(
                            "usage",
                            new JsonObject().put("input_tokens", 2400).put("output_tokens", 1)))));
    int firstActionEnd = -1;
    for (int index = 0; index < actions.size(); index++) {
      BenchActions.Action action = actions.get(index);
      events.add(
          event(
              "content_block_start",
              new JsonObject()
                  .put("type", "content_block_start")
                  .put("index", index)
                  .put(
                      "content_block",
                      new JsonObject()
                          .put("type", "tool_use")
                          .put("id", "toolu_bench" + index)
                          .put("name", action.verb())
                          .put("input", new JsonObject()))));
      for (String fragment :
          BenchActions.fragments(action.params().encode(), minFragment, maxFragment, random)) {
        events.add(
            event(
                "content_block_delta",
                new JsonObject()
                    .put("type", "content_block_delta")
                    .put("index", index)
                    .put(
                        "delta",
                        new JsonObject()
                            .put("type", "input_json_delta")
                            .put("partial_json", fragment))));
      }
      events.add(
          event(
              "content_block_stop",
              new JsonObject().put("type", "content_block_stop").put("index", index)));
      if (firstActionEnd < 0) {
        firstActionEnd = events.size() - 1;
      }
    }
    events.add(
        event(
            "message_delta",
            new JsonObject()
                .put("type", "message_delta")
                .put(
                    "delta",
                    new JsonObject().put("stop_reason", "tool_use").putNull("stop_sequence"))
                .put("usage", new JsonObject().put("output_tokens", 40 * actions.size()))));
    events.add(event("message_stop", new JsonObject().put("type", "message_stop")));
    return new AnthropicWire(List.copyOf(events), firstActionEnd);
  }

  int bytes() {
    return events.stream().mapToInt(event -> event.length).sum();
  }

  private static byte[] event(String name, JsonObject data) {
    return ("event: " + name + "\ndata: " + data.encode() + "\n\n")
        .getBytes(StandardCharsets.UTF_8);
  }
}
