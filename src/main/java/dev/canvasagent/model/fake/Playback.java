package dev.canvasagent.model.fake;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * Plays a stream one event at a time on the caller's context: after {@code delayMs} each, or with
 * a delay of 0 as soon as the context gets to it — each event its own task, so a long stream never
 * holds the event loop and a cancel between two events is honoured.
 */
final class Playback implements ModelCall {
  private final Vertx vertx;
  private final Context context;
  private final Deque<ModelEvent> events;
  private final Consumer<ModelEvent> sink;
  private final int delayMs;
  private boolean canceled;
  private long timerId = -1;

  Playback(Vertx vertx, Deque<ModelEvent> events, Consumer<ModelEvent> sink, int delayMs) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.events = events;
    this.sink = sink;
    this.delayMs = delayMs;
  }

  /** Schedules the next event; never delivers one on the caller's stack. */
  void next() {
    if (canceled || events.isEmpty()) {
      return;
    }
    if (delayMs == 0) {
      context.runOnContext(ignored -> deliver());
    } else {
      // A timer set from the caller's context fires on it.
      context.runOnContext(
          ignored -> {
            if (!canceled) {
              timerId = vertx.setTimer(delayMs, id -> deliver());
            }
          });
    }
  }

  private void deliver() {
    if (!canceled) {
      sink.accept(events.poll());
      next();
    }
  }

  @Override
  public void cancel() {
    canceled = true;
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
    }
  }
}
