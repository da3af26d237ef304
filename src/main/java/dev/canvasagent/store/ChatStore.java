package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A session's chat history: the person's messages and everything the agent said on
 * {@code agent:chat}, in the order they were recorded.
 */
public interface ChatStore {
  /** {@code runId}: the run that recorded the message, or null for one outside a run. */
  Future<ChatMessage> append(String sessionId, String runId, String role, String text);

  /** The session's last {@code limit} messages, oldest first. */
  Future<List<ChatMessage>> recent(String sessionId, int limit);

  /**
   * {@code role} is {@code user}, {@code assistant} or {@code system}; {@code runId} the run that
   * recorded it (null for messages older than the column).
   */
  record ChatMessage(String role, String text, long atMillis, String runId) {
    public static final String USER = "user";
    public static final String ASSISTANT = "assistant";

    /** A follow-up's message: what the agent or the scheduler asked for, not the person. */
    public static final String SYSTEM = "system";

    /** What the model reads of it: no run id, which means nothing to the model. */
    public JsonObject toJson() {
      return new JsonObject().put("role", role).put("text", text);
    }
  }
}
