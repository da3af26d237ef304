package dev.canvasagent.bridge;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * An event that comes in floods when someone attacks (a refused connection, a missed deadline): one
 * line per occurrence, but only the first of each window at WARN, saying how many went to DEBUG since
 * the warning before it; the rest at DEBUG. An operator sees the flood without the log becoming it. Not thread-safe: the
 * bridge's event loop is its only caller.
 */
final class ThrottledWarning {
  static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final Logger log;
  private final String event;
  private final long windowNanos;
  private final LongSupplier nanoClock;
  private long windowStart;
  private boolean started;
  private long atDebug;

  ThrottledWarning(Logger log, String event, long windowNanos, LongSupplier nanoClock) {
    this.log = log;
    this.event = event;
    this.windowNanos = windowNanos;
    this.nanoClock = nanoClock;
  }

  ThrottledWarning(Logger log, String event) {
    this(log, event, WINDOW_NANOS, System::nanoTime);
  }

  /** One occurrence, from {@code address}, with {@code detail} (what happened: no user content). */
  void record(String address, String detail) {
    long now = nanoClock.getAsLong();
    if (!started || now - windowStart >= windowNanos) {
      started = true;
      windowStart = now;
      log.atWarn()
          .addKeyValue("address", address)
          .addKeyValue("detail", detail)
          .addKeyValue("atDebugSinceLastWarning", atDebug)
          .addKeyValue("windowSeconds", TimeUnit.NANOSECONDS.toSeconds(windowNanos))
          .log(event);
      atDebug = 0;
      return;
    }
    atDebug++;
    log.atDebug().addKeyValue("address", address).addKeyValue("detail", detail).log(event);
  }
}
