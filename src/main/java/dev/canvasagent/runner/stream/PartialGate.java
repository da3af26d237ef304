package dev.canvasagent.runner.stream;

import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Decides which partial snapshots of a run's actions go out: per action at most one per interval,
 * only when it differs from the last one sent, and none once the action is closed (its final
 * envelope is on its way). An interval of 0 lets none through.
 */
public final class PartialGate {
  private final long intervalMs;
  private final LongSupplier clockMs;
  private final Map<String, Sent> actions = new HashMap<>();

  private static final class Sent {
    long atMs;
    JsonObject params;
    boolean closed;
  }

  public PartialGate(long intervalMs, LongSupplier clockMs) {
    this.intervalMs = intervalMs;
    this.clockMs = clockMs;
  }

  /** Whether a snapshot of this action may be sent now (checked before the snapshot is made). */
  public boolean due(String actionId) {
    if (intervalMs <= 0) {
      return false;
    }
    Sent sent = actions.get(actionId);
    return sent == null
        || !sent.closed && (sent.params == null || clockMs.getAsLong() - sent.atMs >= intervalMs);
  }

  /** Records {@code params} as sent and returns true when they are due and new; false otherwise. */
  public boolean offer(String actionId, JsonObject params) {
    if (!due(actionId) || params.isEmpty()) {
      return false;
    }
    Sent sent = actions.computeIfAbsent(actionId, id -> new Sent());
    if (params.equals(sent.params)) {
      return false;
    }
    sent.atMs = clockMs.getAsLong();
    sent.params = params;
    return true;
  }

  /** The action is complete: no partial of it may go out from now on. */
  public void close(String actionId) {
    Sent sent = actions.computeIfAbsent(actionId, id -> new Sent());
    sent.closed = true;
    sent.params = null;
  }

  public boolean isOpen(String actionId) {
    Sent sent = actions.get(actionId);
    return sent == null || !sent.closed;
  }
}
