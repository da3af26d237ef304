package dev.canvasagent.scheduler;

import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * The limit of a run: {@code scheduler.watchdogMs} after the scheduler hands a run to the runner, a run
 * still going is canceled with code {@code WATCHDOG}. One timer per running run, released when it ends.
 */
final class Watchdog {
  private final Vertx vertx;
  private final long limitMs;

  Watchdog(Vertx vertx, long limitMs) {
    this.vertx = vertx;
    this.limitMs = limitMs;
  }

  void watch(ActiveRun active, Consumer<String> expired) {
    active.watchdogTimer =
        vertx.setTimer(
            limitMs,
            id -> {
              if (!active.ended()) {
                expired.accept("the run exceeded the watchdog limit of " + limitMs + " ms");
              }
            });
  }

  void release(ActiveRun active) {
    if (active.watchdogTimer >= 0) {
      vertx.cancelTimer(active.watchdogTimer);
    }
  }
}
