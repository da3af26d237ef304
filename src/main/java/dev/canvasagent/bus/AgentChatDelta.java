package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * An {@code agent:chat} message still being written: {@code delta} is the text that follows what
 * the message {@code messageId} said so far. The message ends with an {@link AgentChat} of the same
 * {@code messageId} ({@code final: true}, its whole text), or, when it will not be said after all (a
 * refused action, a run that ended before it was complete), with a withdrawal: {@code final: true,
 * withdrawn: true} and no text. Neither carries {@code message}, so a client that knows nothing of
 * deltas (it reads {@code message}) sees only the whole messages.
 */
public record AgentChatDelta(
    String sessionId, String messageId, String role, String delta, boolean withdrawn)
    implements BusMessage {

  public static AgentChatDelta delta(
      String sessionId, String messageId, String role, String delta) {
    return new AgentChatDelta(sessionId, messageId, role, delta, false);
  }

  public static AgentChatDelta withdrawal(String sessionId, String messageId, String role) {
    return new AgentChatDelta(sessionId, messageId, role, null, true);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("type", "agent:chat")
            .put("sessionId", sessionId)
            .put("messageId", messageId)
            .put("role", role);
    if (withdrawn) {
      return json.put("final", true).put("withdrawn", true);
    }
    return json.put("delta", delta);
  }
}
