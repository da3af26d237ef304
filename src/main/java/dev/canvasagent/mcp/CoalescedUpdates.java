package dev.canvasagent.mcp;

import io.vertx.core.Vertx;

/**
 * One subscription's {@code notifications/resources/updated}, at most one per window: a run commits a
 * revision per action, and a client told of each would re-read the board dozens of times a second. The
 * first change is told at once; the changes within the following window are told once, as it ends, so
 * the last change is always told. Confined to the context that created it (the session's event loop).
 */
final class CoalescedUpdates {
  /** The window: a few re-reads a second keep a client current without flooding it. */
  static final long WINDOW_MS = 200;

  private final Vertx vertx;
  private final long windowMs;
  private final Runnable notify;
  private long timer = -1;
  private boolean pending;
  private boolean closed;

  CoalescedUpdates(Vertx vertx, long windowMs, Runnable notify) {
    this.vertx = vertx;
    this.windowMs = windowMs;
    this.notify = notify;
  }

  /** The resource changed. */
  void changed() {
    if (closed) {
      return;
    }
    if (timer >= 0) {
      pending = true;
      return;
    }
    notify.run();
    timer = vertx.setTimer(windowMs, fired -> windowEnded());
  }

  private void windowEnded() {
    timer = -1;
    if (pending && !closed) {
      pending = false;
      notify.run();
      timer = vertx.setTimer(windowMs, fired -> windowEnded());
    }
  }

  /** No more notifications, not even one still held for the window's end. */
  void close() {
    closed = true;
    pending = false;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }
}
