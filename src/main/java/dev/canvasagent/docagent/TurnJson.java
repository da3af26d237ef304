package dev.canvasagent.docagent;

import dev.canvasagent.model.Turn;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's turn as the store keeps it: {@code {kind: user|assistant|tool_results, …}}, read back
 * into the same turn, so a session continued on another node sends the model the same history.
 */
final class TurnJson {
  private TurnJson() {}

  static JsonObject toJson(Turn turn) {
    if (turn instanceof Turn.User user) {
      return new JsonObject().put("kind", "user").put("text", user.text());
    }
    if (turn instanceof Turn.Assistant answer) {
      JsonArray calls = new JsonArray();
      for (Turn.ToolCall call : answer.calls()) {
        calls.add(
            new JsonObject()
                .put("callId", call.callId())
                .put("name", call.name())
                .put("arguments", call.arguments().copy())
                .put("signature", call.signature()));
      }
      return new JsonObject()
          .put("kind", "assistant")
          .put("text", answer.text())
          .put("calls", calls);
    }
    JsonArray results = new JsonArray();
    for (Turn.ToolResult result : ((Turn.ToolResults) turn).results()) {
      results.add(
          new JsonObject()
              .put("callId", result.callId())
              .put("name", result.name())
              .put("result", result.result() == null ? null : result.result().copy())
              .put("error", result.error()));
    }
    return new JsonObject().put("kind", "tool_results").put("results", results);
  }

  static Turn fromJson(JsonObject json) {
    String kind = json.getString("kind");
    switch (kind == null ? "" : kind) {
      case "user":
        return new Turn.User(json.getString("text"));
      case "assistant":
        List<Turn.ToolCall> calls = new ArrayList<>();
        for (Object each : json.getJsonArray("calls", new JsonArray())) {
          JsonObject call = (JsonObject) each;
          calls.add(
              new Turn.ToolCall(
                  call.getString("callId"),
                  call.getString("name"),
                  call.getJsonObject("arguments"),
                  call.getString("signature")));
        }
        return new Turn.Assistant(json.getString("text"), calls);
      case "tool_results":
        List<Turn.ToolResult> results = new ArrayList<>();
        for (Object each : json.getJsonArray("results", new JsonArray())) {
          JsonObject result = (JsonObject) each;
          results.add(
              new Turn.ToolResult(
                  result.getString("callId"),
                  result.getString("name"),
                  result.getJsonObject("result"),
                  result.getString("error")));
        }
        return new Turn.ToolResults(results);
      default:
        throw new IllegalArgumentException("a stored document-agent turn of unknown kind: " + kind);
    }
  }
}
