package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/**
 * {@code runner}: one run's backstop deadline, its action cap, how often it sends partial envelopes,
 * and how long it keeps retrying commits that meet newer revisions.
 */
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

  static final Setting CONFLICT_PATIENCE_MS =
      Setting.of(
          "runner.conflictPatienceMs",
          "CANVAS_AGENT_CONFLICT_PATIENCE_MS",
          whole(100, 600_000),
          10_000,
          "How long, 100–600000, a run keeps retrying a commit that meets newer revisions (people editing the board) before it ends with `error` (`REVISION_CONFLICT`); counted from the first refused commit since the run's last commit.");

  static final List<Setting> ALL =
      List.of(DEADLINE_MS, MAX_ACTIONS, PARTIAL_INTERVAL_MS, CONFLICT_PATIENCE_MS);

  private RunnerSettings() {}

  static AppConfig.Runner read(ConfigValues values) {
    return new AppConfig.Runner(
        values.whole(DEADLINE_MS),
        values.whole(MAX_ACTIONS),
        values.whole(PARTIAL_INTERVAL_MS),
        values.whole(CONFLICT_PATIENCE_MS));
  }
}
