package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A run about to end {@code done}, asking the scheduler for the follow-ups its rules add: the run, its
 * session, and how much it did: the actions it applied that were not chat ({@code think}, {@code
 * message}), a committed {@code batch_operations} counting as the shapes it created or changed.
 */
public record RunEnding(String runId, String sessionId, int actionsApplied) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("runId", runId)
        .put("sessionId", sessionId)
        .put("actionsApplied", actionsApplied);
  }

  public static RunEnding fromJson(JsonObject json) {
    return new RunEnding(
        json.getString("runId"), json.getString("sessionId"), json.getInteger("actionsApplied", 0));
  }
}
