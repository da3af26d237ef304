package dev.canvasagent.scheduler;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Ids derived from a client's idempotency key, so that a retried request names the same run or
 * session as the first one and the store's primary key ({@code ON CONFLICT DO NOTHING}) keeps it
 * once, on any node. Keys are scoped to a room; each kind of request has its own namespace.
 */
final class IdempotencyKeys {
  private IdempotencyKeys() {}

  /** The run a {@code POST /api/canvas-agent/run} with this key in this room creates. */
  static String runId(String roomId, String key) {
    return derive("run", roomId, key);
  }

  /** The session such a run creates when it names none. */
  static String sessionOfRun(String roomId, String key) {
    return derive("run-session", roomId, key);
  }

  /** The session a {@code POST /api/sessions} with this key in this room creates. */
  static String session(String roomId, String key) {
    return derive("session", roomId, key);
  }

  private static String derive(String kind, String roomId, String key) {
    // Room ids cannot hold '\n', so distinct (kind, room, key) never meet in one name.
    return UUID.nameUUIDFromBytes((kind + "\n" + roomId + "\n" + key).getBytes(StandardCharsets.UTF_8)).toString();
  }
}
