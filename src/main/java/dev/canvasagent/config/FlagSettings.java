package dev.canvasagent.config;

import static dev.canvasagent.config.Check.flag;
import static dev.canvasagent.config.Check.only;

import java.util.List;

/**
 * {@code flags}: the theme, and three flags of the system this server replaced, kept so that its
 * deployments still start: each accepts only the one value this server supports.
 */
final class FlagSettings {
  static final Setting UNIFIED =
      Setting.of(
          "flags.unified",
          "CANVAS_AGENT_UNIFIED",
          only(true, "the unified server steward is the only execution path of this server"),
          true,
          "Only `true`: the server steward is the only execution path.");
  static final Setting CLIENT_AGENT_ENABLED =
      Setting.of(
          "flags.clientAgentEnabled",
          "NEXT_PUBLIC_CANVAS_AGENT_CLIENT_ENABLED",
          only(false, "the archived client agent does not exist in this server"),
          false,
          "Only `false`: the archived client agent does not exist here.");
  static final Setting THEME_ENABLED =
      Setting.of(
          "flags.themeEnabled",
          "NEXT_PUBLIC_CANVAS_AGENT_THEME_ENABLED",
          flag(),
          true,
          "Brand palette aliases in the sanitizer (brutalist orange → orange, charcoal → black, …).");
  static final Setting QUEUE_DIRECT_FALLBACK =
      Setting.of(
          "flags.queueDirectFallback",
          "CANVAS_QUEUE_DIRECT_FALLBACK",
          only(false, "every run goes through the scheduler's queue"),
          false,
          "Only `false`: every run goes through the scheduler.");

  static final List<Setting> ALL =
      List.of(UNIFIED, CLIENT_AGENT_ENABLED, THEME_ENABLED, QUEUE_DIRECT_FALLBACK);

  private FlagSettings() {}

  /** The retired flags, checked first: a deployment that still relies on one learns so before anything else. */
  static void checkRetired(ConfigValues values) {
    values.read(UNIFIED);
    values.read(CLIENT_AGENT_ENABLED);
    values.read(QUEUE_DIRECT_FALLBACK);
  }
}
