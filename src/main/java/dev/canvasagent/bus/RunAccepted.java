package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** The scheduler took a run: its session (perhaps just created) and the run's id. */
public record RunAccepted(String sessionId, String runId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("sessionId", sessionId).put("runId", runId);
  }

  public static RunAccepted fromJson(JsonObject json) {
    return new RunAccepted(json.getString("sessionId"), json.getString("runId"));
  }
}
