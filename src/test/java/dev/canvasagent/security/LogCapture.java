package dev.canvasagent.security;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import dev.canvasagent.logging.JsonLinesTest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Every log event of every logger while it is open, written out in full: message with its arguments,
 * key-value pairs, MDC and the whole throwable chain ({@link #open}), or as the JSON console writes
 * it ({@link #openJson}). The loggers the configuration quiets (Netty,
 * Vert.x, Flyway) and the root are opened to DEBUG for the while, and put back after.
 */
final class LogCapture implements AutoCloseable {
  static final String PATTERN = "%level %logger %msg %kv %mdc%n%ex{full}";
  private static final List<String> OPENED =
      List.of(
          org.slf4j.Logger.ROOT_LOGGER_NAME,
          "dev.canvasagent",
          "io.netty",
          "io.vertx",
          "org.flywaydb");

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
  private final Map<String, Level> levels = new HashMap<>();

  private LogCapture(Encoder<ILoggingEvent> encoder) {
    appender.setContext(context);
    appender.setName("log-capture");
    appender.setEncoder(encoder);
    appender.setOutputStream(out);
    appender.setImmediateFlush(true);
    appender.start();
  }

  /** Captures with {@link #PATTERN}. */
  static LogCapture open() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.setCharset(StandardCharsets.UTF_8);
    encoder.start();
    return open(encoder);
  }

  /** Captures with the JSON console's encoder ({@code logback-json.xml}), one JSON object a line. */
  static LogCapture openJson() {
    return open(JsonLinesTest.jsonEncoder());
  }

  private static LogCapture open(Encoder<ILoggingEvent> encoder) {
    LogCapture capture = new LogCapture(encoder);
    for (String name : OPENED) {
      Logger logger = capture.context.getLogger(name);
      capture.levels.put(name, logger.getLevel());
      logger.setLevel(Level.DEBUG);
    }
    capture.context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(capture.appender);
    return capture;
  }

  /** Everything logged so far, as the pattern wrote it. */
  String text() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(appender);
    appender.stop();
    levels.forEach((name, level) -> context.getLogger(name).setLevel(level));
  }
}
