package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code memory}: how much board history the embedded memory store keeps per room. */
final class MemorySettings {
  static final Setting REVISIONS_PER_ROOM =
      Setting.of(
          "memory.revisionsPerRoom",
          "CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM",
          whole(1, 1_000_000),
          10_000,
          "Memory store only: the board revisions kept per room (1–1000000); the oldest are dropped first. The board itself is always kept whole; `GET /api/rooms/{roomId}/revisions` says when history was trimmed.");
  static final Setting REVISION_BYTES_PER_ROOM =
      Setting.of(
          "memory.revisionBytesPerRoom",
          "CANVAS_AGENT_MEMORY_REVISION_BYTES_PER_ROOM",
          whole(65_536, 1_073_741_824),
          64 * 1024 * 1024,
          "Memory store only: the bytes of board revisions kept per room (each its diff's JSON and author), 65536–1073741824; the oldest are dropped first, the newest is always kept.");

  static final List<Setting> ALL = List.of(REVISIONS_PER_ROOM, REVISION_BYTES_PER_ROOM);

  private MemorySettings() {}

  static AppConfig.MemoryHistory read(ConfigValues values) {
    return new AppConfig.MemoryHistory(
        values.whole(REVISIONS_PER_ROOM), values.whole(REVISION_BYTES_PER_ROOM));
  }
}
