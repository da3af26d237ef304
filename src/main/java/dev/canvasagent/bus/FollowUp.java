package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * What marks a run as a follow-up: the user request it continues ({@code requestRunId}, the run that
 * person's message started), the run that asked for it, its number among that request's follow-ups
 * (1-based) and the verb that asked. A follow-up always asks for a fresh screenshot.
 */
public record FollowUp(String requestRunId, String askedByRunId, int number, String reason) {
  public JsonObject toJson() {
    return new JsonObject()
        .put("requestRunId", requestRunId)
        .put("askedByRunId", askedByRunId)
        .put("number", number)
        .put("reason", reason);
  }

  /** Null when absent. */
  public static FollowUp fromJson(JsonObject json) {
    if (json == null) {
      return null;
    }
    return new FollowUp(
        json.getString("requestRunId"),
        json.getString("askedByRunId"),
        json.getInteger("number"),
        json.getString("reason"));
  }
}
