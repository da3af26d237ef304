package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A session's last run that has ended, as its record holds it, for the admin view: its final state,
 * the code it ended with ({@code null} for one that ended {@code done} or {@code scheduled}), when it
 * was accepted and when it ended (epoch milliseconds). Never its message or reason text.
 */
public record EndedRun(String runId, String state, String code, long createdAt, long endedAt)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("runId", runId)
        .put("state", state)
        .put("code", code)
        .put("createdAt", createdAt)
        .put("endedAt", endedAt);
  }

  public static EndedRun fromJson(JsonObject json) {
    String message = "EndedRun";
    return new EndedRun(
        MessageFields.string(json, "runId", message),
        MessageFields.string(json, "state", message),
        MessageFields.optionalString(json, "code", message),
        MessageFields.number(json, "createdAt", message),
        MessageFields.number(json, "endedAt", message));
  }
}
