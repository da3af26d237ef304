package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** The {@code agent:chat} payload: a message from the assistant (or the system) to the room. */
public record AgentChat(String sessionId, String role, String text) {
  public JsonObject toJson() {
    return new JsonObject()
        .put("type", "agent:chat")
        .put("sessionId", sessionId)
        .put("message", new JsonObject().put("role", role).put("text", text));
  }
}
