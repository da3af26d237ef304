package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code screenshot}: the screenshot RPC to a room's host. */
final class ScreenshotSettings {
  static final Setting TIMEOUT_MS =
      Setting.of(
          "screenshot.timeoutMs",
          "CANVAS_AGENT_SCREENSHOT_TIMEOUT_MS",
          whole(2_500, 120_000),
          3500,
          "Wait for a host's screenshot, at least 2500.");
  static final Setting RETRIES =
      Setting.of(
          "screenshot.retries",
          "CANVAS_AGENT_SCREENSHOT_RETRIES",
          whole(0, 10),
          1,
          "Extra attempts after a timeout (0–10).");
  static final Setting RETRY_DELAY_MS =
      Setting.of(
          "screenshot.retryDelayMs",
          "CANVAS_AGENT_SCREENSHOT_RETRY_DELAY_MS",
          whole(0, 60_000),
          450,
          "Pause between attempts.");
  static final Setting CACHE_TTL_MS =
      Setting.of(
          "screenshot.cacheTtlMs",
          "CANVAS_AGENT_SCREENSHOT_CACHE_TTL_MS",
          whole(0, 30_000),
          20_000,
          "How long a capture is reused for the same room, revision (`docVersion`) and bounds, 0–30000; 0 turns the cache off.");
  static final Setting MAX_BYTES =
      Setting.of(
          "screenshot.maxBytes",
          "CANVAS_AGENT_SCREENSHOT_MAX_BYTES",
          whole(1_024, 16 * 1024 * 1024),
          2_097_152,
          "Largest image a host may send (decoded, and its `image.bytes`), 1 KiB–16 MiB; a larger reply is rejected.");

  static final List<Setting> ALL =
      List.of(TIMEOUT_MS, RETRIES, RETRY_DELAY_MS, CACHE_TTL_MS, MAX_BYTES);

  private ScreenshotSettings() {}

  static AppConfig.Screenshot read(ConfigValues values) {
    return new AppConfig.Screenshot(
        values.whole(TIMEOUT_MS),
        values.whole(RETRIES),
        values.whole(RETRY_DELAY_MS),
        values.whole(CACHE_TTL_MS),
        values.whole(MAX_BYTES));
  }
}
