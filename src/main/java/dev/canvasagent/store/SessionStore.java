package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/**
 * Agent sessions: a conversation with the agent in one room, and its atoms (what a resume restores:
 * title, model, chat origin, context items), and its envelope sequence. A room has any number of
 * sessions.
 */
public interface SessionStore {
  /** Creates the session; creating the same id again is a no-op that answers the first (retries are safe). */
  default Future<Session> create(Session session) {
    return create(session, null);
  }

  /**
   * Creates the session, keeping the fingerprint of the keyed request that asks for it (null: none).
   * The same id again answers the first session when the fingerprint is the same; with another, the
   * call fails with {@link IdempotencyKeys#reused()} and changes nothing.
   */
  Future<Session> create(Session session, String requestFingerprint);

  Future<Optional<Session>> find(String sessionId);

  /** The room's sessions, the most recently active first (then the newest), at most {@code limit}. */
  Future<List<Session>> list(String roomId, int limit);

  /** Changes what {@code changes} gives; empty for an unknown session. */
  Future<Optional<Session>> update(String sessionId, Changes changes);

  /**
   * Removes the session and its atoms (chat history, todos, run records) in one step, unless a run of
   * it is queued or running. The room's board and transcript are the room's, and stay.
   */
  Future<Deletion> delete(String sessionId);

  /** The next envelope seq of the session: strictly increasing, never reused, across nodes. */
  Future<Long> nextSeq(String sessionId);

  /**
   * The session's coordinate origin: the first call fixes it to {@code proposed}, every later call
   * (on any node) gets that first origin back. Fails with {@link UnknownSession} for a session
   * never created.
   */
  Future<Origin> fixOrigin(String sessionId, Origin proposed);

  /** What {@link #delete} did. */
  enum Deletion {
    DELETED,
    NOT_FOUND,
    BUSY
  }

  /** A change of a session: null fields stay as they are. */
  record Changes(String title, String model, JsonArray contextItems) {
    public Changes {
      contextItems = contextItems == null ? null : contextItems.copy();
    }
  }

  /** The page point the model's coordinates are relative to. */
  record Origin(double x, double y) {
    public static final Origin ZERO = new Origin(0, 0);

    public JsonObject toJson() {
      return new JsonObject().put("x", x).put("y", y);
    }
  }

  /**
   * A session. {@code origin} is null until its first run fixes it; {@code contextItems} are what a
   * person pinned for the agent (shapes, areas, points; see {@code api/session-update.json}).
   */
  record Session(
      String id,
      String roomId,
      String title,
      String model,
      Origin origin,
      JsonArray contextItems,
      long createdAtMillis,
      long lastActiveAtMillis) {
    public static final int MAX_TITLE_CHARS = 200;
    private static final DateTimeFormatter TITLE_TIME =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    public Session {
      contextItems = contextItems == null ? new JsonArray() : contextItems.copy();
    }

    /** A new session with the default title, no origin and no context items. */
    public Session(String id, String roomId, String model, long createdAtMillis) {
      this(
          id,
          roomId,
          defaultTitle(createdAtMillis),
          model,
          null,
          new JsonArray(),
          createdAtMillis,
          createdAtMillis);
    }

    /** {@code Session 2026-11-22 14:05} (UTC): what a session is called until someone names it. */
    public static String defaultTitle(long createdAtMillis) {
      return "Session " + TITLE_TIME.format(Instant.ofEpochMilli(createdAtMillis));
    }

    public Session withTitle(String newTitle) {
      return new Session(
          id, roomId, newTitle, model, origin, contextItems, createdAtMillis, lastActiveAtMillis);
    }

    @Override
    public JsonArray contextItems() {
      return contextItems.copy();
    }

    public JsonObject toJson() {
      return new JsonObject()
          .put("id", id)
          .put("roomId", roomId)
          .put("title", title)
          .put("model", model)
          .put("origin", origin == null ? null : origin.toJson())
          .put("contextItems", contextItems.copy())
          .put("createdAt", createdAtMillis)
          .put("lastActiveAt", lastActiveAtMillis);
    }
  }
}
