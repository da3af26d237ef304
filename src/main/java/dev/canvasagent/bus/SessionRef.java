package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A session a request names ({@code scheduler.session.get}, {@code .delete}, {@code .room}), and the room
 * the caller expects it in: null for any room, otherwise a session of another room is
 * SESSION_ROOM_MISMATCH. As the answer of {@code scheduler.session.room}, the room the session is in.
 */
public record SessionRef(String sessionId, String roomId) implements BusMessage {
  /** The session, in whatever room it is. */
  public static SessionRef of(String sessionId) {
    return new SessionRef(sessionId, null);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("sessionId", sessionId);
    if (roomId != null) {
      json.put("roomId", roomId);
    }
    return json;
  }

  public static SessionRef fromJson(JsonObject json) {
    return new SessionRef(
        MessageFields.nonBlank(json, "sessionId", "a session reference"),
        MessageFields.optionalString(json, "roomId", "a session reference"));
  }
}
