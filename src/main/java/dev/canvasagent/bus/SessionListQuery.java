package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** The scheduler is asked for a room's sessions, at most {@code limit} of them. */
public record SessionListQuery(String roomId, int limit) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("limit", limit);
  }

  public static SessionListQuery fromJson(JsonObject json) {
    String message = "a session list query";
    return new SessionListQuery(
        MessageFields.string(json, "roomId", message),
        MessageFields.integer(json, "limit", message));
  }
}
