package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/** Agent sessions: a conversation with the agent in one room, and its envelope sequence. */
public interface SessionStore {
  /** Creates the session; creating the same id again with the same room is a no-op (retries are safe). */
  Future<Session> create(Session session);

  Future<Optional<Session>> find(String sessionId);

  /** The next envelope seq of the session: strictly increasing, never reused, across nodes. */
  Future<Long> nextSeq(String sessionId);

  /**
   * The session's coordinate origin (seed 002's "session origin"): the first call fixes it to
   * {@code proposed}, every later call (on any node) gets that first origin back. Fails with
   * {@link UnknownSession} for a session never created.
   */
  Future<Origin> fixOrigin(String sessionId, Origin proposed);

  /** The page point the model's coordinates are relative to. */
  record Origin(double x, double y) {
    public static final Origin ZERO = new Origin(0, 0);
  }

  record Session(String id, String roomId, String model, long createdAtMillis) {
    public JsonObject toJson() {
      return new JsonObject()
          .put("id", id)
          .put("roomId", roomId)
          .put("model", model)
          .put("createdAt", createdAtMillis);
    }
  }
}
