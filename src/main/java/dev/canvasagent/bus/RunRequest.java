package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * One run for the runner: what a person asked, in which room and session, with which model.
 * {@code viewport} may be null; {@code followUp} is null for a person's own request.
 */
public record RunRequest(
    String runId, String sessionId, String roomId, String message, String model, Viewport viewport, FollowUp followUp) {

  /** A person's request (not a follow-up). */
  public RunRequest(String runId, String sessionId, String roomId, String message, String model, Viewport viewport) {
    this(runId, sessionId, roomId, message, model, viewport, null);
  }

  /** The run id of the user request this run belongs to: its own, or the one it follows up. */
  public String requestRunId() {
    return followUp == null ? runId : followUp.requestRunId();
  }

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
    if (followUp != null) {
      json.put("followUp", followUp.toJson());
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
        Viewport.fromJson(json.getJsonObject("viewport")),
        FollowUp.fromJson(json.getJsonObject("followUp")));
  }
}
