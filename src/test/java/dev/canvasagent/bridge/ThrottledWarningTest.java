package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A flood of one event: one line each, the first of every window at WARN, on a clock the test moves. */
class ThrottledWarningTest {
  static final long WINDOW = 10;

  final Logger logger = (Logger) LoggerFactory.getLogger("test.throttled-warning");
  final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  long now;
  ThrottledWarning warning;

  @BeforeEach
  void setUp() {
    logger.setLevel(Level.DEBUG);
    lines.start();
    logger.addAppender(lines);
    warning = new ThrottledWarning(logger, "test.event", WINDOW, () -> now);
  }

  @AfterEach
  void tearDown() {
    logger.detachAppender(lines);
  }

  List<Level> levels() {
    return lines.list.stream().map(ILoggingEvent::getLevel).toList();
  }

  @Test
  void theFirstOfEachWindowIsAWarningAndTheRestAreDebug() {
    for (int i = 0; i < 5; i++) {
      warning.record("127.0.0.1", "late");
    }
    now += WINDOW;
    warning.record("127.0.0.1", "late");
    warning.record("127.0.0.1", "late");

    assertEquals(
        List.of(
            Level.WARN,
            Level.DEBUG,
            Level.DEBUG,
            Level.DEBUG,
            Level.DEBUG,
            Level.WARN,
            Level.DEBUG),
        levels());
    ILoggingEvent second = lines.list.get(5);
    assertEquals("test.event", second.getMessage());
    assertEquals(
        "4",
        second.getKeyValuePairs().stream()
            .filter(pair -> pair.key.equals("atDebugSinceLastWarning"))
            .map(pair -> String.valueOf(pair.value))
            .findFirst()
            .orElseThrow(),
        "the four of the window before went to DEBUG");
  }

  @Test
  void aQuietWindowAndThenOneEventIsAWarning() {
    warning.record("127.0.0.1", "late");
    now += 5 * WINDOW;
    warning.record("127.0.0.2", "late");

    assertEquals(List.of(Level.WARN, Level.WARN), levels());
  }
}
