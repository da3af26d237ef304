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
