package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * The agent's todo list per session: items are open, done or skipped, ordered by position then
 * creation; resolving an item stamps {@code resolvedAt}.
 */
public interface TodoStore {
  /** The session's items in list order. */
  Future<List<Todo>> list(String sessionId);

  /** Adds an open item at {@code position}. */
  Future<Todo> add(String sessionId, String text, int position);

  /**
   * Changes an item of the session; null arguments leave that field as it is. Empty when the session
   * has no such item (an id of another session included).
   */
  Future<Optional<Todo>> update(
      String sessionId, String todoId, String text, Status status, Integer position);

  enum Status {
    OPEN,
    DONE,
    SKIPPED;

    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Optional<Status> fromWire(String name) {
      for (Status status : values()) {
        if (status.wireName().equals(name)) {
          return Optional.of(status);
        }
      }
      return Optional.empty();
    }
  }

  record Todo(
      String id,
      String sessionId,
      String text,
      Status status,
      int position,
      long createdAtMillis,
      Long resolvedAtMillis) {
    public JsonObject toJson() {
      JsonObject json =
          new JsonObject()
              .put("id", id)
              .put("text", text)
              .put("status", status.wireName())
              .put("position", position)
              .put("createdAt", createdAtMillis);
      if (resolvedAtMillis != null) {
        json.put("resolvedAt", resolvedAtMillis);
      }
      return json;
    }
  }
}
