package dev.canvasagent.logging;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.List;
import org.slf4j.event.KeyValuePair;

/**
 * An event's key-value pairs as {@code key=value key2="a value"}, always on one line: logback's own
 * {@code %kvp{NONE}} writes values raw, so a value holding a line break (an id from a request, a
 * provider's error text) would start what reads as a new event, and one holding {@code " x=y"} would
 * read as another pair. A value that is not a plain word is quoted, with {@code \} and {@code "}
 * escaped, line breaks and tabs as {@code \n \r \t}, and every other control, format or separator
 * character (U+0085, U+2028, U+2029, …) as {@code \}{@code uXXXX}. Keys get the same treatment,
 * though they are the code's own names. Registered in {@code logback.xml} as {@code %kv}.
 */
public final class OneLineKeyValueConverter extends ClassicConverter {
  @Override
  public String convert(ILoggingEvent event) {
    List<KeyValuePair> pairs = event.getKeyValuePairs();
    if (pairs == null || pairs.isEmpty()) {
      return "";
    }
    StringBuilder line = new StringBuilder();
    for (KeyValuePair pair : pairs) {
      if (!line.isEmpty()) {
        line.append(' ');
      }
      append(line, String.valueOf(pair.key));
      line.append('=');
      append(line, String.valueOf(pair.value));
    }
    return line.toString();
  }

  /** {@code text} as is when it is a plain word, else quoted and escaped. */
  static void append(StringBuilder line, String text) {
    if (plain(text)) {
      line.append(text);
      return;
    }
    line.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> line.append("\\\"");
        case '\\' -> line.append("\\\\");
        case '\n' -> line.append("\\n");
        case '\r' -> line.append("\\r");
        case '\t' -> line.append("\\t");
        default -> {
          if (c == ' ' || !invisible(c)) {
            line.append(c);
          } else {
            line.append(String.format("\\u%04x", (int) c));
          }
        }
      }
    }
    line.append('"');
  }

  private static boolean plain(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ' ' || c == '"' || c == '=' || c == '\\' || invisible(c)) {
        return false;
      }
    }
    return true;
  }

  /** Characters that break, hide or space a line rather than print: controls, formats, separators. */
  private static boolean invisible(char c) {
    return switch (Character.getType(c)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SPACE_SEPARATOR ->
          true;
      default -> false;
    };
  }
}
