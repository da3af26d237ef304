package dev.canvasagent.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.joran.spi.JoranException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

/**
 * The JSON console ({@code logback-json.xml}, chosen by {@code CANVAS_AGENT_LOG_FORMAT=json}) writes
 * each event as one JSON object on one line, with the fields docs/operations.md names, whatever its
 * key-value pairs hold. The fat jar's own output in this format is read by {@code JsonLogsIT}.
 */
public class JsonLinesTest {
  static final List<String> TERMINATORS = List.of("\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085");

  /** The encoder of the JSON console appender, as {@code logback-json.xml} defines it. */
  public static Encoder<ILoggingEvent> jsonEncoder() {
    LoggerContext context = new LoggerContext();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    String configuration =
        "<configuration><include resource=\"logback-json.xml\"/>"
            + "<root level=\"DEBUG\"><appender-ref ref=\"STDOUT\"/></root></configuration>";
    try {
      configurator.doConfigure(
          new ByteArrayInputStream(configuration.getBytes(StandardCharsets.UTF_8)));
    } catch (JoranException bad) {
      throw new IllegalStateException(bad);
    }
    OutputStreamAppender<ILoggingEvent> console =
        (OutputStreamAppender<ILoggingEvent>)
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("STDOUT");
    return console.getEncoder();
  }

  /** What the JSON console writes for an event with these pairs and this cause. */
  static String line(Throwable cause, KeyValuePair... pairs) {
    LoggerContext context = new LoggerContext();
    Logger logger = context.getLogger("dev.canvasagent.scheduler.SchedulerVerticle");
    LoggingEvent event =
        new LoggingEvent(Logger.class.getName(), logger, Level.INFO, "run.submitted", cause, null);
    event.setKeyValuePairs(List.of(pairs));
    return new String(jsonEncoder().encode(event), StandardCharsets.UTF_8);
  }

  /** Each line of {@code text} as a JSON object with the fields every event has; fails on any other line. */
  public static List<JsonObject> parseLines(String text) {
    return text.lines()
        .filter(line -> !line.isEmpty())
        .map(
            line -> {
              JsonObject object = new JsonObject(line);
              for (String field : List.of("timestamp", "level", "logger", "event")) {
                assertTrue(object.getValue(field) instanceof String, field + " in: " + line);
              }
              return object;
            })
        .toList();
  }

  @Test
  void anEventIsOneJsonObjectWithItsPairsAsFields() {
    String text = line(null, new KeyValuePair("roomId", "demo"), new KeyValuePair("queued", 2));
    assertTrue(text.endsWith("\n"), text);
    assertEquals(1, text.lines().count(), text);
    JsonObject line = parseLines(text).get(0);
    assertEquals("INFO", line.getString("level"));
    assertEquals("dev.canvasagent.scheduler.SchedulerVerticle", line.getString("logger"));
    assertEquals("run.submitted", line.getString("event"));
    assertEquals("demo", line.getString("roomId"));
    assertEquals(2, line.getInteger("queued"));
    assertTrue(
        line.getString("timestamp").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"),
        line.getString("timestamp"));
    assertFalse(line.containsKey("exception"), text);
  }

  @Test
  void aValueWithALineTerminatorOrQuotesStaysInsideItsField() {
    for (String terminator : TERMINATORS) {
      String hostile =
          "demo\"," + terminator + "{\"level\":\"ERROR\",\"event\":\"forged\"}" + terminator + "\\";
      String text =
          line(null, new KeyValuePair("roomId", hostile), new KeyValuePair("runId", "r1"));
      String body = text.substring(0, text.length() - 1);
      assertTrue(
          body.chars()
              .noneMatch(
                  c -> c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029' || c == '\u0085'),
          "one line: " + text);
      JsonObject line = parseLines(text).get(0);
      assertEquals(hostile, line.getString("roomId"));
      assertEquals("r1", line.getString("runId"));
      assertEquals("run.submitted", line.getString("event"));
      assertEquals("INFO", line.getString("level"));
    }
  }

  @Test
  void anExceptionIsShortAndOnTheSameLine() {
    RuntimeException cause =
        new RuntimeException(
            "store failed\nsecond line\u2028third", new IllegalStateException("root cause"));
    String text = line(cause, new KeyValuePair("code", "STORE_UNAVAILABLE"));
    assertEquals(1, text.lines().count(), text);
    String exception = parseLines(text).get(0).getString("exception");
    assertTrue(exception.startsWith("java.lang.RuntimeException: store failed"), exception);
    assertTrue(exception.contains("Caused by: java.lang.IllegalStateException: root cause"));
    // Short: a few frames of each throwable, not the whole stack.
    assertTrue(
        exception.lines().filter(frame -> frame.startsWith("\tat ")).count() <= 6, exception);
  }

  @Test
  void theFormatIsChosenByItsVariableAndTextOtherwise() {
    assertEquals(LogFormat.JSON, LogFormat.chosenBy("json"));
    assertEquals(LogFormat.TEXT, LogFormat.chosenBy("text"));
    assertEquals(LogFormat.TEXT, LogFormat.chosenBy(null));
    // The configuration check refuses it with a message, written in text.
    assertEquals(LogFormat.TEXT, LogFormat.chosenBy("JSON "));
  }

  /**
   * The pairs are top-level fields beside the ones every event has: a pair named like one of them
   * would write the key twice, so none of the code's pairs may be.
   */
  @Test
  void noPairIsNamedLikeAFieldEveryEventHas() throws IOException {
    Pattern key = Pattern.compile("addKeyValue\\(\\s*\"([^\"]+)\"");
    List<String> reserved = List.of("timestamp", "level", "logger", "event", "exception");
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
        Matcher pairs = key.matcher(Files.readString(file));
        while (pairs.find()) {
          assertFalse(reserved.contains(pairs.group(1)), file + " logs a pair " + pairs.group(1));
        }
      }
    }
  }
}
