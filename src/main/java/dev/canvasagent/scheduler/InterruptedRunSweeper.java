package dev.canvasagent.scheduler;

import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.store.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the runs of nodes that died: on start and every {@code durability.heartbeatMs}, every queued or
 * running run whose heartbeat is older than {@code durability.interruptedAfterMs} becomes {@code error}
 * with code INTERRUPTED, decided in one conditional statement (so two nodes sweeping agree, and a
 * live node's runs, whose heartbeats are fresh, are never touched), and the error is published to the
 * run's room. A queued run of a dead node lived only in that node's memory: it is interrupted too.
 */
final class InterruptedRunSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(InterruptedRunSweeper.class);

  private final Vertx vertx;
  private final RunStore runs;
  private final long intervalMs;
  private final long interruptedAfterMs;
  private long timer = -1;
  private boolean sweeping;
  private long swept;

  InterruptedRunSweeper(Vertx vertx, RunStore runs, long intervalMs, long interruptedAfterMs) {
    this.vertx = vertx;
    this.runs = runs;
    this.intervalMs = intervalMs;
    this.interruptedAfterMs = interruptedAfterMs;
  }

  /** Sweeps once now and then periodically; the first sweep's failure is logged, not fatal. */
  Future<Void> start() {
    timer = vertx.setPeriodic(intervalMs, id -> sweep());
    return sweep();
  }

  Future<Void> sweep() {
    if (sweeping) {
      return Future.succeededFuture();
    }
    sweeping = true;
    JsonObject detail =
        new JsonObject()
            .put("code", FailureCode.INTERRUPTED.name())
            .put(
                "reason",
                "the node running this run stopped (no heartbeat for "
                    + interruptedAfterMs
                    + " ms)")
            .put("retryable", FailureCode.INTERRUPTED.retryable());
    return runs.sweepInterrupted(interruptedAfterMs, detail)
        .onSuccess(ended -> ended.forEach(this::publish))
        .<Void>mapEmpty()
        .otherwise(
            error -> {
              LOG.atWarn().addKeyValue("error", error.getMessage()).log("run.sweep_failed");
              return null;
            })
        .onComplete(done -> sweeping = false);
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
