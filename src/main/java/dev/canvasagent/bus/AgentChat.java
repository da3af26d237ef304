package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The {@code agent:chat} payload: a message from the assistant (or the system) to the room.
 * {@code docId} names the document a document agent's message is about; {@code todo} is set on the system messages that reflect a change to the session's todo list:
 * {@code {op: added|updated|resolved|reordered, item: {id, text, status, position, createdAt, resolvedAt?}}}.
 * {@code messageId} is set on the end of a message that was streamed ({@link AgentChatDelta}): the
 * payload then also carries {@code messageId}, {@code final: true} and {@code text} at its top level.
 */
public record AgentChat(
    String sessionId, String role, String text, JsonObject todo, String docId, String messageId)
    implements BusMessage {
  public AgentChat(String sessionId, String role, String text) {
    this(sessionId, role, text, null, null, null);
  }

  public AgentChat(String sessionId, String role, String text, JsonObject todo) {
    this(sessionId, role, text, todo, null, null);
  }

  public AgentChat(String sessionId, String role, String text, JsonObject todo, String docId) {
    this(sessionId, role, text, todo, docId, null);
  }

  /** The same message, about the document {@code docId} (the document agent's chat). */
  public AgentChat aboutDocument(String docId) {
    return new AgentChat(sessionId, role, text, todo, docId, messageId);
  }

  /** The whole text of the streamed message {@code messageId}: its end. */
  public static AgentChat finalOf(String sessionId, String messageId, String role, String text) {
    return new AgentChat(sessionId, role, text, null, null, messageId);
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
    if (messageId != null) {
      json.put("messageId", messageId).put("final", true).put("text", text);
    }
    return json;
  }
}
