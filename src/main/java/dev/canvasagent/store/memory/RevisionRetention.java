package dev.canvasagent.store.memory;

/**
 * How much of each room's revision history the memory store keeps: at most {@code revisionsPerRoom}
 * revisions and {@code bytesPerRoom} bytes of them (each counted as its diff's JSON plus its author),
 * whichever is reached first. The oldest go first; the newest is always kept, whatever its size, so a
 * reader can tell trimmed history from no history ({@link dev.canvasagent.store.BoardStore#revisions}).
 */
public record RevisionRetention(int revisionsPerRoom, long bytesPerRoom) {
  /** The defaults of {@code CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM} and {@code …_REVISION_BYTES_PER_ROOM}. */
  public static final RevisionRetention DEFAULT = new RevisionRetention(10_000, 64L * 1024 * 1024);

  public RevisionRetention {
    if (revisionsPerRoom < 1) {
      throw new IllegalArgumentException(
          "revisionsPerRoom must be at least 1, was " + revisionsPerRoom);
    }
    if (bytesPerRoom < 1) {
      throw new IllegalArgumentException("bytesPerRoom must be at least 1, was " + bytesPerRoom);
    }
  }
}
