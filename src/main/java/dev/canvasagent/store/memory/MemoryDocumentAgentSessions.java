package dev.canvasagent.store.memory;

import dev.canvasagent.store.DocumentAgentSessions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Document-agent sessions in memory: the newest {@link #KEPT} (by last append) are kept, the least
 * recently appended one forgotten past that, so the embedded store does not grow without bound.
 */
final class MemoryDocumentAgentSessions implements DocumentAgentSessions {
  static final int KEPT = 1_000;

  private final Object lock = new Object();

  private final Map<String, Conversation> sessions =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Conversation> eldest) {
          return size() > KEPT;
        }
      };

  @Override
  public Future<Optional<Conversation>> find(String sessionId) {
    synchronized (lock) {
      Conversation found = sessions.get(sessionId);
      return Future.succeededFuture(Optional.ofNullable(found == null ? null : copy(found)));
    }
  }

  @Override
  public Future<Void> append(
      String sessionId, String docId, List<JsonObject> turns, String lastSeenRevisionId) {
    synchronized (lock) {
      Conversation current =
          sessions.getOrDefault(sessionId, new Conversation(sessionId, docId, null, List.of()));
      if (!current.docId().equals(docId)) {
        return Future.failedFuture(new BoundToAnotherDocument(sessionId));
      }
      List<JsonObject> all = new ArrayList<>(current.turns());
      turns.forEach(turn -> all.add(turn.copy()));
      sessions.remove(sessionId);
      sessions.put(
          sessionId,
          new Conversation(
              sessionId,
              docId,
              lastSeenRevisionId == null ? current.lastSeenRevisionId() : lastSeenRevisionId,
              all));
      return Future.succeededFuture();
    }
  }

  /** By value: a caller never holds the stored turns. */
  private static Conversation copy(Conversation stored) {
    return new Conversation(
        stored.sessionId(),
        stored.docId(),
        stored.lastSeenRevisionId(),
        stored.turns().stream().map(JsonObject::copy).toList());
  }
}
