package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code runner}: one run's backstop deadline, its action cap, and how often it sends partial envelopes. */
final class RunnerSettings {
  static final Setting DEADLINE_MS =
      Setting.of(
          "runner.deadlineMs",
          "CANVAS_AGENT_RUN_DEADLINE_MS",
          whole(1_000, 600_000),
          90_000,
          "The runner's backstop, 1000–600000: a run still going after this ends with `error` (`DEADLINE`). Longer than the watchdog, it only ends a run whose scheduler could not cancel it; shorter, it ends runs before the watchdog does.");
  static final Setting MAX_ACTIONS =
      Setting.of(
          "runner.maxActions",
          "CANVAS_AGENT_MAX_ACTIONS_PER_RUN",
          whole(1, 10_000),
          200,
          "Actions (tool calls and text actions) per run; past it the model call is stopped (`stopReason: step_cap`).");
  static final Setting PARTIAL_INTERVAL_MS =
      Setting.of(
          "runner.partialIntervalMs",
          "CANVAS_AGENT_PARTIAL_INTERVAL_MS",
          whole(0, 60_000),
          100,
          "Least time between two partial envelopes of one action, 0–60000; 0 sends no partial envelopes.");

  static final List<Setting> ALL = List.of(DEADLINE_MS, MAX_ACTIONS, PARTIAL_INTERVAL_MS);

  private RunnerSettings() {}

  static AppConfig.Runner read(ConfigValues values) {
    return new AppConfig.Runner(
        values.whole(DEADLINE_MS), values.whole(MAX_ACTIONS), values.whole(PARTIAL_INTERVAL_MS));
  }
}
