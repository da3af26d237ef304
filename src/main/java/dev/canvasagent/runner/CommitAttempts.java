package dev.canvasagent.runner;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * One action's commits that met a newer revision (people editing the board meanwhile). Each is
 * retried against the fresh board after a pause with exponential backoff and full jitter, so that the
 * agent and other writers, or two agents, do not meet again in lockstep; they go on for as long as the
 * run's patience ({@code runner.conflictPatienceMs}) from the action's first refused commit, not a
 * fixed number of times. Only an action that could not commit for that long ends the run
 * (REVISION_CONFLICT), or is refused so when it came from outside a run.
 */
final class CommitAttempts {
  /** The first pause's ceiling; each refused commit doubles it, up to {@link #MAX_BACKOFF_MS}. */
  static final long BASE_BACKOFF_MS = 5;

  /**
   * The longest pause. People do not back off: each commit of theirs that lands in the agent's
   * window (from its reading the board to its commit) refuses the agent's, so what wins the agent a
   * turn on a busy board is trying often, and a longer pause only makes it lose more time between
   * tries. A ceiling this low still spreads out two agents that keep meeting each other.
   */
  static final long MAX_BACKOFF_MS = 80;

  private final Vertx vertx;
  private final long patienceMs;

  /** Told how long the action has waited at each refused commit (a run's metrics count them). */
  private final LongConsumer conflictWaited;

  private int refused;
  private long firstRefusedNanos;

  CommitAttempts(Vertx vertx, long patienceMs, LongConsumer conflictWaited) {
    this.vertx = vertx;
    this.patienceMs = patienceMs;
    this.conflictWaited = conflictWaited;
  }

  /** The commits tried so far: the refused ones and the one under way. */
  int attempt() {
    return refused + 1;
  }

  /** How many commits met a newer revision. */
  int refused() {
    return refused;
  }

  /**
   * A commit met a newer revision ({@code conflict}, the patch engine's words): completes when the
   * next attempt may go, or fails with REVISION_CONFLICT once the action has been refused for the
   * whole patience.
   */
  Future<Void> refused(Failure conflict) {
    long now = System.nanoTime();
    if (refused++ == 0) {
      firstRefusedNanos = now;
    }
    long waitedMs = TimeUnit.NANOSECONDS.toMillis(now - firstRefusedNanos);
    conflictWaited.accept(waitedMs);
    if (waitedMs >= patienceMs) {
      return Failure.future(
          FailureCode.REVISION_CONFLICT,
          "could not commit for "
              + patienceMs
              + " ms: "
              + refused
              + " attempts met newer revisions of the board (people editing it); the last: "
              + conflict.getMessage());
    }
    long pause =
        Math.min(
            ThreadLocalRandom.current().nextLong(ceilingMs(refused) + 1), patienceMs - waitedMs);
    if (pause <= 0) {
      return Future.succeededFuture();
    }
    Promise<Void> waited = Promise.promise();
    vertx.setTimer(pause, id -> waited.complete());
    return waited.future();
  }

  /** The ceiling of the pause after the {@code n}th refused commit: 5, 10, 20, 40, 80 ms. */
  static long ceilingMs(int n) {
    return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS << Math.min(n - 1, 16));
  }
}
