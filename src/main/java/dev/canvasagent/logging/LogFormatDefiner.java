package dev.canvasagent.logging;

import ch.qos.logback.core.PropertyDefinerBase;

/**
 * Gives {@code logback.xml} the console's format ({@code text} or {@code json}) from {@link
 * LogFormat#VARIABLE}, as the file's {@code logFormat}: the file includes {@code
 * logback-${logFormat}.xml}. A property definer rather than logback's conditional configuration, which
 * would need janino on the class path.
 */
public final class LogFormatDefiner extends PropertyDefinerBase {
  @Override
  public String getPropertyValue() {
    return LogFormat.chosenBy(System.getenv(LogFormat.VARIABLE)).wireName();
  }
}
