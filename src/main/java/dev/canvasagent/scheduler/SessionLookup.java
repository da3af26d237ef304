package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.SessionStore.Session;
import io.vertx.core.Future;

/**
 * A session a request names, looked up the one way every scheduler request does: an unknown one is
 * SESSION_NOT_FOUND, one of another room SESSION_ROOM_MISMATCH, a store that cannot answer
 * STORE_UNAVAILABLE.
 */
final class SessionLookup {
  private SessionLookup() {}

  /** {@code roomId} null: a session of any room will do. */
  static Future<Session> existing(SessionStore sessions, String sessionId, String roomId) {
    return sessions
        .find(sessionId)
        .recover(error -> Failure.storeFailed("read the session", error))
        .compose(
            found -> {
              if (found.isEmpty()) {
                return Failure.future(FailureCode.SESSION_NOT_FOUND, "no session " + sessionId);
              }
              if (roomId != null && !found.get().roomId().equals(roomId)) {
                return Failure.future(
                    FailureCode.SESSION_ROOM_MISMATCH,
                    "session " + sessionId + " belongs to another room");
              }
              return Future.succeededFuture(found.get());
            });
  }
}
