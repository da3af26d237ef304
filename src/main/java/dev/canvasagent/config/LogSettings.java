package dev.canvasagent.config;

import static dev.canvasagent.config.Check.oneOf;

import dev.canvasagent.logging.LogFormat;
import java.util.Arrays;
import java.util.List;

/**
 * {@code log}: how the console writes events. Logback reads the format as the process starts ({@link
 * dev.canvasagent.logging.LogFormatDefiner}), before this configuration is loaded, so only its
 * environment variable sets it; here it is checked, so that a value logback could not use stops the
 * server with the usual message, and {@code CANVAS_AGENT_CONFIG}, read too late, may not set it.
 */
final class LogSettings {
  static final Setting FORMAT =
      Setting.of(
          "log.format",
          LogFormat.VARIABLE,
          oneOf(Arrays.stream(LogFormat.values()).map(LogFormat::wireName).toArray(String[]::new)),
          LogFormat.TEXT.wireName(),
          "The console's format: `text`, one `key=value` line an event, or `json`, one JSON object a line (timestamp, level, logger, event, the event's pairs, exception); see [Operations: Logs](operations.md#logs). Read as the process starts, so only the environment variable sets it; `CANVAS_AGENT_CONFIG` may not.");

  static final List<Setting> ALL = List.of(FORMAT);

  private LogSettings() {}

  /** Checks the format; the format in use is logback's, chosen from the same variable. */
  static void check(ConfigValues values) {
    values.text(FORMAT);
    if (values.source(FORMAT.path()).startsWith(ConfigLoader.BLOB_VARIABLE)) {
      throw values.bad(
          FORMAT,
          "the log format is chosen as the process starts, before "
              + ConfigLoader.BLOB_VARIABLE
              + " is read: set "
              + LogFormat.VARIABLE
              + " instead");
    }
  }
}
