package dev.canvasagent.logging;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How the console writes each event: {@code text} (one {@code key=value} line, {@code
 * logback-text.xml}) or {@code json} (one JSON object a line, {@code logback-json.xml}). Chosen by
 * {@link #VARIABLE} as the process starts, before any configuration is read, so only the environment
 * sets it; the configuration ({@code log.format}) checks the same variable.
 */
public enum LogFormat {
  TEXT,
  JSON;

  /** The environment variable that chooses the format. */
  public static final String VARIABLE = "CANVAS_AGENT_LOG_FORMAT";

  /** The name the variable takes, and the suffix of the logback file that defines the console. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The format named {@code name} exactly ({@code text}, {@code json}); empty for any other. */
  public static Optional<LogFormat> named(String name) {
    return Arrays.stream(values()).filter(format -> format.wireName().equals(name)).findFirst();
  }

  /**
   * The format {@code value} of the variable chooses: text when it is unset, and also when it names
   * none, since the configuration check then stops the server naming the value, and that message must
   * be readable.
   */
  public static LogFormat chosenBy(String value) {
    return value == null ? TEXT : named(value).orElse(TEXT);
  }
}
