package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The {@code agent:chat} payload: a message from the assistant (or the system) to the room.
 * {@code todo} is set on the system messages that reflect a change to the session's todo list:
 * {@code {op: added|updated|resolved|reordered, item: {id, text, status, position, createdAt, resolvedAt?}}}.
 */
public record AgentChat(String sessionId, String role, String text, JsonObject todo) {
  public AgentChat(String sessionId, String role, String text) {
    this(sessionId, role, text, null);
  }

  public JsonObject toJson() {
    JsonObject message = new JsonObject().put("role", role).put("text", text);
    if (todo != null) {
      message.put("todo", todo);
    }
    return new JsonObject()
        .put("type", "agent:chat")
        .put("sessionId", sessionId)
        .put("message", message);
  }
}
