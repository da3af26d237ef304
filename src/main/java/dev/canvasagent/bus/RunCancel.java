package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The scheduler asks the runner to end a run as {@code canceled}: {@code code} is why in one word
 * ({@code CANCELED}, {@code PREEMPTED}, {@code WATCHDOG}), {@code reason} in a sentence; both go into
 * the run's final status.
 */
public record RunCancel(String runId, FailureCode code, String reason) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("code", code.name()).put("reason", reason);
  }

  public static RunCancel fromJson(JsonObject json) {
    return new RunCancel(
        json.getString("runId"),
        FailureCode.valueOf(json.getString("code")),
        json.getString("reason"));
  }
}
