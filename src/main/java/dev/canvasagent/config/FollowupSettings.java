package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code followups}: when a run gets a follow-up, and how many one user request may have. */
final class FollowupSettings {
  static final Setting LOW_ACTION_THRESHOLD =
      Setting.of(
          "followups.lowActionThreshold",
          "CANVAS_AGENT_LOW_ACTION_THRESHOLD",
          whole(0, 1_000),
          6,
          "The run a person's message started gets one `low_actions` follow-up when it applied fewer actions (chat not counted), 0–1000; 0 turns the rule off.");
  static final Setting MAX_FOLLOWUPS =
      Setting.of(
          "followups.maxFollowups",
          "CANVAS_AGENT_MAX_FOLLOWUPS",
          whole(0, 20),
          3,
          "Follow-ups per user request (`add_detail`, `review`, `low_actions`, `open_todos` together), 0–20; one more is refused.");

  static final List<Setting> ALL = List.of(LOW_ACTION_THRESHOLD, MAX_FOLLOWUPS);

  private FollowupSettings() {}

  static AppConfig.Followups read(ConfigValues values) {
    return new AppConfig.Followups(values.whole(LOW_ACTION_THRESHOLD), values.whole(MAX_FOLLOWUPS));
  }
}
