package dev.canvasagent.scheduler;

import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.store.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the runs of nodes that died: on start and every {@code durability.heartbeatMs}, every running
 * run whose heartbeat is older than {@code durability.interruptedAfterMs} becomes {@code error} with
 * code INTERRUPTED, decided in one conditional statement (so two nodes sweeping agree, and a live
 * node's runs, whose heartbeats are fresh, are never touched), and the error is published to the run's
 * room. A queued run of a dead node is not ended: its request is in the store, and the node that owns
 * its session takes it over ({@link QueueTakeover}); only a queued run recorded without its request
 * (by an older version) is interrupted.
 *
 * <p>A run that has ended keeps its final state (the statement changes only a queued or running run),
 * and the sweep leaves out the runs this node holds, a run whose final write is still pending included.
 * While the store is away nobody can renew a heartbeat, so a stale heartbeat then says nothing of its
 * node: after a failed sweep the sweeper only probes the store until {@code
 * durability.interruptedAfterMs} have passed since it last failed, time for every live node to renew
 * its runs' heartbeats (and write their pending final states) once the store is back.
 */
final class InterruptedRunSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(InterruptedRunSweeper.class);

  private final Vertx vertx;
  private final RunStore runs;
  private final long intervalMs;
  private final long interruptedAfterMs;
  private final Supplier<Collection<String>> heldHere;
  private final Supplier<Future<Void>> probe;
  private long timer = -1;

  /** {@link System#nanoTime()} before which no sweep runs: the store has just been away. */
  private long quietUntilNanos = System.nanoTime();

  private boolean sweeping;
  private long swept;

  /**
   * {@code heldHere} answers the runs this node holds, which its sweeps leave alone; {@code probe}
   * asks the store whether it answers, without changing anything.
   */
  InterruptedRunSweeper(
      Vertx vertx,
      RunStore runs,
      long intervalMs,
      long interruptedAfterMs,
      Supplier<Collection<String>> heldHere,
      Supplier<Future<Void>> probe) {
    this.vertx = vertx;
    this.runs = runs;
    this.intervalMs = intervalMs;
    this.interruptedAfterMs = interruptedAfterMs;
    this.heldHere = heldHere;
    this.probe = probe;
  }

  /** Sweeps once now and then periodically; the first sweep's failure is logged, not fatal. */
  Future<Void> start() {
    timer = vertx.setPeriodic(intervalMs, id -> sweep());
    return sweep();
  }

  /**
   * One pass: a sweep, or — within {@code interruptedAfterMs} of the store's last failure — only a probe
   * of the store, so that the quiet time is counted from when the store was last seen away.
   */
  Future<Void> sweep() {
    if (sweeping) {
      return Future.succeededFuture();
    }
    sweeping = true;
    boolean quiet = System.nanoTime() - quietUntilNanos < 0;
    Future<Void> pass = quiet ? probe.get() : sweepNow();
    return pass.otherwise(
            error -> {
              quietUntilNanos = System.nanoTime() + interruptedAfterMs * 1_000_000;
              LOG.atWarn()
                  .addKeyValue("error", error.getMessage())
                  .addKeyValue("quietMs", interruptedAfterMs)
                  .log("run.sweep_failed");
              return null;
            })
        .onComplete(done -> sweeping = false);
  }

  private Future<Void> sweepNow() {
    JsonObject detail =
        new JsonObject()
            .put("code", FailureCode.INTERRUPTED.name())
            .put(
                "reason",
                "the node running this run stopped (no heartbeat for "
                    + interruptedAfterMs
                    + " ms)")
            .put("retryable", FailureCode.INTERRUPTED.retryable());
    return runs.sweepInterrupted(interruptedAfterMs, detail, heldHere.get())
        .onSuccess(ended -> ended.forEach(this::publish))
        .mapEmpty();
  }

  private void publish(RunStore.RunRecord run) {
    swept++;
    LOG.atWarn()
        .addKeyValue("roomId", run.roomId())
        .addKeyValue("sessionId", run.sessionId())
        .addKeyValue("runId", run.runId())
        .addKeyValue("code", FailureCode.INTERRUPTED.name())
        .log("run.interrupted");
    // A follow-up's status names its request, as every other status of a follow-up does.
    new AgentStatus(run.sessionId(), RunState.ERROR, run.statusDetail())
        .publish(vertx.eventBus(), run.roomId());
  }

  long swept() {
    return swept;
  }

  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }
}
