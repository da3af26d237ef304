package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A follow-up run the scheduler queued for a running run's user request: its run id, its number
 * among that request's follow-ups (1-based) and the verb or rule that asked ({@code add_detail},
 * {@code review}, {@code low_actions}, …).
 */
public record GrantedFollowUp(String runId, int number, String reason) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("number", number).put("reason", reason);
  }

  public static GrantedFollowUp fromJson(JsonObject json) {
    return new GrantedFollowUp(
        json.getString("runId"), json.getInteger("number"), json.getString("reason"));
  }
}
