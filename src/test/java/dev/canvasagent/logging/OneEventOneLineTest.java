package dev.canvasagent.logging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/**
 * The server's own log configuration ({@code logback.xml}) writes every event on one line, whatever
 * its key-value pairs hold: a value cannot end the line, start a forged event, or pass for another pair.
 */
class OneEventOneLineTest {
  /** What the configured console appender writes for an event with these pairs, its line end cut. */
  static String line(KeyValuePair... pairs) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger logger = context.getLogger("dev.canvasagent.scheduler.SchedulerVerticle");
    OutputStreamAppender<ILoggingEvent> console =
        (OutputStreamAppender<ILoggingEvent>)
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("STDOUT");
    Layout<ILoggingEvent> layout =
        ((LayoutWrappingEncoder<ILoggingEvent>) console.getEncoder()).getLayout();
    LoggingEvent event =
        new LoggingEvent(Logger.class.getName(), logger, Level.INFO, "run.submitted", null, null);
    event.setKeyValuePairs(List.of(pairs));
    String text = layout.doLayout(event);
    assertTrue(text.endsWith(System.lineSeparator()), text);
    return text.substring(0, text.length() - System.lineSeparator().length());
  }

  @Test
  void aValueWithALineTerminatorLogsAsOneLine() {
    for (String terminator : List.of("\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085")) {
      String line =
          line(
              new KeyValuePair(
                  "roomId", "demo" + terminator + "2026-01-01T00:00:00.000Z ERROR forged event"),
              new KeyValuePair("runId", "r1"));

      assertTrue(
          line.chars()
              .noneMatch(
                  c -> c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029' || c == '\u0085'),
          "one line: " + line);
      assertTrue(line.endsWith(" runId=r1"), line);
    }
  }

  @Test
  void plainValuesStayAsTheyWereAndOthersAreQuotedAndEscaped() {
    assertTrue(
        line(new KeyValuePair("roomId", "demo"), new KeyValuePair("queued", 2))
            .endsWith(" run.submitted roomId=demo queued=2"));
    String line =
        line(
            new KeyValuePair("error", "no session x y=\"z\"\\ \t\u0007"),
            new KeyValuePair("empty", ""),
            new KeyValuePair("missing", null));
    assertTrue(
        line.endsWith(" error=\"no session x y=\\\"z\\\"\\\\ \\t\\u0007\" empty=\"\" missing=null"),
        line);
  }

  @Test
  void aValueCannotPassForAnotherPair() {
    assertTrue(
        line(new KeyValuePair("title", "a admin=true"))
            .endsWith(" run.submitted title=\"a admin=true\""));
  }
}
