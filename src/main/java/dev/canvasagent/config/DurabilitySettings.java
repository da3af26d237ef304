package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code durability}: the heartbeats of queued and running runs, and when a silent one counts as interrupted. */
final class DurabilitySettings {
  static final Setting HEARTBEAT_MS =
      Setting.of(
          "durability.heartbeatMs",
          "CANVAS_AGENT_RUN_HEARTBEAT_MS",
          whole(100, 60_000),
          5000,
          "How often the node holding a queued or running run renews its heartbeat, how often the sweeper looks for interrupted runs, and how often a node looks for queued runs to take over (100–60000).");
  static final Setting INTERRUPTED_AFTER_MS =
      Setting.of(
          "durability.interruptedAfterMs",
          "CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS",
          whole(500, 3_600_000),
          15_000,
          "A running run whose heartbeat is older is marked `error` (`INTERRUPTED`); a queued one is taken over by its session's owner; at least twice the heartbeat (500–3600000).");

  static final List<Setting> ALL = List.of(HEARTBEAT_MS, INTERRUPTED_AFTER_MS);

  private DurabilitySettings() {}

  static AppConfig.Durability read(ConfigValues values) {
    int heartbeat = values.whole(HEARTBEAT_MS);
    int interruptedAfter = values.whole(INTERRUPTED_AFTER_MS);
    if (interruptedAfter < 2 * heartbeat) {
      // One late heartbeat must not make a live run look dead.
      throw values.bad(
          INTERRUPTED_AFTER_MS,
          "must be at least twice durability.heartbeatMs (" + heartbeat + ")");
    }
    return new AppConfig.Durability(heartbeat, interruptedAfter);
  }
}
