package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code scheduler}: a session's queue, the watchdog, and the time a runner has to answer a cancel. */
final class SchedulerSettings {
  static final Setting MAX_QUEUE_DEPTH =
      Setting.of(
          "scheduler.maxQueueDepth",
          "CANVAS_AGENT_MAX_QUEUE_DEPTH",
          whole(1, 1_000),
          8,
          "Runs that may wait behind a session's running run (follow-ups a new message will drop not counted); more → 429.");
  static final Setting WATCHDOG_MS =
      Setting.of(
          "scheduler.watchdogMs",
          "CANVAS_AGENT_RUN_WATCHDOG_MS",
          whole(1_000, 600_000),
          60_000,
          "The limit of a run, 1000–600000: still going this long after the scheduler handed it to the runner, it is canceled (`WATCHDOG`).");

  /** Above the runner's settle time (1 s), so a healthy runner always answers a cancel in time. */
  static final Setting CANCEL_GRACE_MS =
      Setting.noVariable(
          "scheduler.cancelGraceMs",
          whole(2_000, 60_000),
          5000,
          "How long a runner has to end a canceled run (cancel, preemption, watchdog), 2000–60000 (more than the runner's 1 s wait for the action in hand); past it the scheduler publishes `error` `INTERRUPTED` and moves the session on.");

  static final Setting SHUTDOWN_GRACE_MS =
      Setting.of(
          "scheduler.shutdownGraceMs",
          "CANVAS_AGENT_SHUTDOWN_GRACE_MS",
          whole(0, 600_000),
          20_000,
          "On SIGTERM, how long the running runs have to end by themselves, 0–600000; those still going then end `canceled` (`CANCELED`). See [Operations: Shutdown](operations.md#shutdown).");

  static final List<Setting> ALL =
      List.of(MAX_QUEUE_DEPTH, WATCHDOG_MS, CANCEL_GRACE_MS, SHUTDOWN_GRACE_MS);

  private SchedulerSettings() {}

  static AppConfig.Scheduler read(ConfigValues values) {
    return new AppConfig.Scheduler(
        values.whole(MAX_QUEUE_DEPTH),
        values.whole(WATCHDOG_MS),
        values.whole(CANCEL_GRACE_MS),
        values.whole(SHUTDOWN_GRACE_MS));
  }
}
