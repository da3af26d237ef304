package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A running run asks the scheduler for one more pass: {@code reason} is the verb that asked
 * ({@code add_detail}, {@code review}), {@code message} what the follow-up is asked, {@code viewport}
 * the region it looks at (null: the asking run's).
 */
public record FollowUpRequest(
    String runId, String sessionId, String roomId, String reason, String message, Viewport viewport)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("runId", runId)
            .put("sessionId", sessionId)
            .put("roomId", roomId)
            .put("reason", reason)
            .put("message", message);
    if (viewport != null) {
      json.put("viewport", viewport.toJson());
    }
    return json;
  }

  public static FollowUpRequest fromJson(JsonObject json) {
    return new FollowUpRequest(
        json.getString("runId"),
        json.getString("sessionId"),
        json.getString("roomId"),
        json.getString("reason"),
        json.getString("message"),
        Viewport.fromJson(json.getJsonObject("viewport")));
  }
}
