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
          "Time-to-first-envelope objective; each run logs `ttfbMs` and `ttfbSloMet`.");

  static final List<Setting> ALL = List.of(TTFB_MS);

  private SloSettings() {}
}
