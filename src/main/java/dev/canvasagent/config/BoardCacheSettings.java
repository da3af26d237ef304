package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/**
 * {@code boardCache}: how much of the boards it writes the patch engine holds in memory (an estimate
 * in bytes), and how long an unused room stays held.
 */
final class BoardCacheSettings {
  static final Setting MAX_BYTES =
      Setting.of(
          "boardCache.maxBytes",
          "CANVAS_AGENT_BOARD_CACHE_BYTES",
          whole(1_048_576, Integer.MAX_VALUE),
          268_435_456,
          "The boards the patch engine holds in memory, together, by an estimate of their size in bytes (1048576–2147483647); over it the least recently used room is let go (loaded from the store when next used). A single board larger than this is still held, alone.");
  static final Setting IDLE_MS =
      Setting.of(
          "boardCache.idleMs",
          "CANVAS_AGENT_BOARD_CACHE_IDLE_MS",
          whole(1_000, 86_400_000),
          600_000,
          "A room whose board nothing read or changed for this long is let go from memory (1000–86400000).");

  static final List<Setting> ALL = List.of(MAX_BYTES, IDLE_MS);

  private BoardCacheSettings() {}

  static AppConfig.BoardCache read(ConfigValues values) {
    return new AppConfig.BoardCache(values.whole(MAX_BYTES), values.whole(IDLE_MS));
  }
}
