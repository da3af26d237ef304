package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** The scheduler has deleted the session and its atoms (chat, todos, runs); on the bus {@code deleted: true}. */
public record SessionDeleted(String sessionId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("sessionId", sessionId).put("deleted", true);
  }

  public static SessionDeleted fromJson(JsonObject json) {
    return new SessionDeleted(MessageFields.string(json, "sessionId", "a session deletion"));
  }
}
