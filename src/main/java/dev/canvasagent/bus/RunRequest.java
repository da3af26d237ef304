package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * One run for the runner: what a person asked, in which room and session, with which model.
 * {@code viewport} may be null.
 */
public record RunRequest(
    String runId, String sessionId, String roomId, String message, String model, Viewport viewport) {

  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("runId", runId)
            .put("sessionId", sessionId)
            .put("roomId", roomId)
            .put("message", message)
            .put("model", model);
    if (viewport != null) {
      json.put("viewport", viewport.toJson());
    }
    return json;
  }

  public static RunRequest fromJson(JsonObject json) {
    return new RunRequest(
        json.getString("runId"),
        json.getString("sessionId"),
        json.getString("roomId"),
        json.getString("message"),
        json.getString("model"),
        Viewport.fromJson(json.getJsonObject("viewport")));
  }
}
