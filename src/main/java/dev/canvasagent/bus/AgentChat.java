package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The {@code agent:chat} payload: a message from the assistant (or the system) to the room.
 * {@code docId} names the document a document agent's message is about; {@code todo} is set on the system messages that reflect a change to the session's todo list:
 * {@code {op: added|updated|resolved|reordered, item: {id, text, status, position, createdAt, resolvedAt?}}}.
 */
public record AgentChat(String sessionId, String role, String text, JsonObject todo, String docId)
    implements BusMessage {
  public AgentChat(String sessionId, String role, String text) {
    this(sessionId, role, text, null, null);
  }

  public AgentChat(String sessionId, String role, String text, JsonObject todo) {
    this(sessionId, role, text, todo, null);
  }

  /** The same message, about the document {@code docId} (the document agent's chat). */
  public AgentChat aboutDocument(String docId) {
    return new AgentChat(sessionId, role, text, todo, docId);
  }

  @Override
  public JsonObject toJson() {
    JsonObject message = new JsonObject().put("role", role).put("text", text);
    if (todo != null) {
      message.put("todo", todo);
    }
    JsonObject json =
        new JsonObject()
            .put("type", "agent:chat")
            .put("sessionId", sessionId)
            .put("message", message);
    if (docId != null) {
      json.put("docId", docId);
    }
    return json;
  }
}
