package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * The document agent's sessions: each bound to one document at first use, with its conversation
 * (every turn, hidden canvas-update messages included, as the agent's JSON) and the revision the
 * agent last saw. In the store, so a session started on one node continues on another.
 */
public interface DocumentAgentSessions {
  /** The session as stored, or empty when it has no turn yet. */
  Future<Optional<Conversation>> find(String sessionId);

  /**
   * Appends {@code turns} after the session's last one, binding the session to {@code docId} at
   * first use, and records {@code lastSeenRevisionId} unless it is null; all at once. Fails with
   * {@link BoundToAnotherDocument} (nothing changed) when the session belongs to another document.
   */
  Future<Void> append(
      String sessionId, String docId, List<JsonObject> turns, String lastSeenRevisionId);

  /** A session: its document, the revision the agent last saw (null before its first turn ended), its turns in order. */
  record Conversation(
      String sessionId, String docId, String lastSeenRevisionId, List<JsonObject> turns) {
    public Conversation {
      turns = List.copyOf(turns);
    }
  }

  /** The session was bound to another document at its first use. */
  final class BoundToAnotherDocument extends RuntimeException {
    public BoundToAnotherDocument(String sessionId) {
      super("session " + sessionId + " belongs to another document");
    }
  }
}
