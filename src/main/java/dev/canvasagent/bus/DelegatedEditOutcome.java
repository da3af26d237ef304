package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * How a delegated edit ({@code doc.agent.edit_request}) ended, for session {@code canvasSessionId}.
 * {@code outcome} is opaque to the bus: the loop's end as the room's {@code agent:status} detail tells
 * it ({@code runId, docId, sessionId, stop, steps, toolCalls, diff, diffStats, finalText, …}), relayed
 * unchanged to the HTTP client. On the wire {@code canvas_session_id} is one more key of it.
 */
public record DelegatedEditOutcome(String canvasSessionId, JsonObject outcome)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return outcome.copy().put("canvas_session_id", canvasSessionId);
  }

  public static DelegatedEditOutcome fromJson(JsonObject json) {
    JsonObject outcome = json.copy();
    String canvasSessionId =
        MessageFields.string(json, "canvas_session_id", "a delegated edit's outcome");
    outcome.remove("canvas_session_id");
    return new DelegatedEditOutcome(canvasSessionId, outcome);
  }
}
