package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A run a scheduler is running, for the admin views: its session, its id, its state as the scheduler
 * sees it ({@code running}, or {@code canceling} once a cancel, preemption or the watchdog has asked it
 * to end) and when it started (epoch milliseconds).
 */
public record RunActivity(String sessionId, String runId, String state, long startedAt)
    implements BusMessage {
  public static final String RUNNING = "running";
  public static final String CANCELING = "canceling";

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("sessionId", sessionId)
        .put("runId", runId)
        .put("state", state)
        .put("startedAt", startedAt);
  }

  public static RunActivity fromJson(JsonObject json) {
    String message = "RunActivity";
    return new RunActivity(
        MessageFields.string(json, "sessionId", message),
        MessageFields.string(json, "runId", message),
        MessageFields.string(json, "state", message),
        MessageFields.number(json, "startedAt", message));
  }
}
