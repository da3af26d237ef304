package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code slo}: the objectives each run's log line is measured against. */
final class SloSettings {
  static final Setting TTFB_MS =
      Setting.of(
          "slo.ttfbMs",
          "CANVAS_AGENT_TTFB_SLO_MS",
          whole(1, 60_000),
          200,
          "Time-to-first-envelope objective; each run logs `ttfbMs` and `ttfbSloMet`, and it is a bucket boundary of `canvas_agent_run_ttfb_seconds` ([Metrics](operations.md#metrics)).");

  static final Setting SCREENSHOT_MS =
      Setting.of(
          "slo.screenshotMs",
          "CANVAS_AGENT_SCREENSHOT_SLO_MS",
          whole(1, 60_000),
          150,
          "Screenshot objective: a bucket boundary of `canvas_agent_screenshot_capture_seconds` ([Metrics](operations.md#metrics)).");

  static final Setting APPLY_JITTER_MS =
      Setting.of(
          "slo.applyJitterMs",
          "CANVAS_AGENT_APPLY_JITTER_SLO_MS",
          whole(1, 60_000),
          50,
          "Apply-jitter objective (seed 000: p95 of the host's apply jitter within it): a bucket boundary of `canvas_agent_apply_jitter_seconds` ([Metrics](operations.md#metrics)).");

  static final List<Setting> ALL = List.of(TTFB_MS, SCREENSHOT_MS, APPLY_JITTER_MS);

  private SloSettings() {}
}
