package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.store.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The final states of runs on their way into the store. A run's final status is said once: when the
 * store fails as it is written (the database restarting), the run's clients have been told, or are
 * about to be, and the record would otherwise stay {@code running} until a sweeper took it for the run
 * of a dead node and published a second final status, {@code INTERRUPTED}, over the real one. So a
 * final state that could not be written stays here — the run is known to this node as "ending with
 * state S" — and is written again with backoff ({@value #FIRST_RETRY_MS} ms, doubling, at most
 * {@value #MAX_RETRY_MS} ms apart) until the store answers. Meanwhile the node renews the run's
 * heartbeat and its sweeper leaves the run alone, the resume payload shows the state the clients were
 * told, and deleting the session writes it first. After {@value #PATIENCE_MS} ms without an answer
 * the write is given up (logged {@code run.record_abandoned}): the run is then like one of a dead
 * node's, and a sweeper ends its record {@code INTERRUPTED}.
 */
final class FinalWrites {
  private static final Logger LOG = LoggerFactory.getLogger(FinalWrites.class);

  static final long FIRST_RETRY_MS = 100;
  static final long MAX_RETRY_MS = 1_000;
  static final long PATIENCE_MS = 600_000;

  /** A final state this node has published, or is about to, that the store does not hold yet. */
  record Ending(RunRequest run, RunState state, JsonObject detail) {}

  /** One pending write: at most one attempt in flight, or a timer set for the next. */
  private static final class Pending {
    final Ending ending;
    final long sinceNanos = System.nanoTime();
    long delayMs = FIRST_RETRY_MS;
    int failures;
    long timer = -1;
    Future<Void> attempt;

    Pending(Ending ending) {
      this.ending = ending;
    }
  }

  private final Vertx vertx;
  private final RunStore runs;
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private boolean stopped;

  FinalWrites(Vertx vertx, RunStore runs) {
    this.vertx = vertx;
    this.runs = runs;
  }

  /**
   * Writes the run's final state now and, if the store fails, again until it answers. Completes after
   * this first attempt, whatever came of it (never fails): a caller may then tell the run's clients.
   */
  Future<Void> write(RunRequest run, RunState state, JsonObject detail) {
    Pending entry = new Pending(new Ending(run, state, detail.copy()));
    Pending earlier = pending.put(run.runId(), entry);
    if (earlier != null && earlier.timer >= 0) {
      // A run ends once (ActiveRun): a second end of the same run is only its latest word.
      vertx.cancelTimer(earlier.timer);
    }
    return attempt(entry).otherwiseEmpty();
  }

  /** The final states this node holds for the session's runs and has not written yet, by run id. */
  Map<String, Ending> endingsOf(String sessionId) {
    Map<String, Ending> endings = new LinkedHashMap<>();
    pending.forEach(
        (runId, entry) -> {
          if (entry.ending.run().sessionId().equals(sessionId)) {
            endings.put(runId, entry.ending);
          }
        });
    return endings;
  }

  /** The runs whose final write is pending: this node still holds them. */
  Set<String> runIds() {
    return Set.copyOf(pending.keySet());
  }

  int size() {
    return pending.size();
  }

  /**
   * Writes the session's pending final states now; fails STORE_UNAVAILABLE when the store still fails
   * (a pending write goes on being retried either way).
   */
  Future<Void> flush(String sessionId) {
    List<Future<Void>> written =
        List.copyOf(pending.values()).stream()
            .filter(entry -> entry.ending.run().sessionId().equals(sessionId))
            .map(this::attemptNow)
            .toList();
    return Future.all(written)
        .<Void>mapEmpty()
        .recover(
            error -> Failure.storeFailed("record the final state of the session's run", error));
  }

  /** Gives up the pending writes with the node: a sweeper ends those runs' records. */
  void stop() {
    stopped = true;
    pending.values().forEach(entry -> vertx.cancelTimer(entry.timer));
    if (!pending.isEmpty()) {
      LOG.atWarn().addKeyValue("runs", pending.size()).log("run.record_abandoned");
    }
    pending.clear();
  }

  private Future<Void> attemptNow(Pending entry) {
    if (entry.timer >= 0) {
      vertx.cancelTimer(entry.timer);
      entry.timer = -1;
    }
    return attempt(entry);
  }

  private Future<Void> attempt(Pending entry) {
    if (entry.attempt != null) {
      return entry.attempt;
    }
    Ending ending = entry.ending;
    Promise<Void> answered = Promise.promise();
    entry.attempt = answered.future();
    runs.finish(ending.run().runId(), ending.state().wireName(), ending.detail())
        .onComplete(
            answer -> {
              settle(entry, answer.succeeded() ? null : answer.cause());
              if (answer.succeeded()) {
                answered.complete();
              } else {
                answered.fail(answer.cause());
              }
            });
    return answered.future();
  }

  private void settle(Pending entry, Throwable error) {
    entry.attempt = null;
    String runId = entry.ending.run().runId();
    if (pending.get(runId) != entry) {
      return; // stopped, or replaced by a later end of the run
    }
    long waitedMs = (System.nanoTime() - entry.sinceNanos) / 1_000_000;
    if (error == null) {
      // Written, or the record had ended already (a sweeper on another node): either way settled.
      pending.remove(runId);
      if (entry.failures > 0) {
        LOG.atInfo()
            .addKeyValue("runId", runId)
            .addKeyValue("state", entry.ending.state().wireName())
            .addKeyValue("attempts", entry.failures + 1)
            .addKeyValue("waitedMs", waitedMs)
            .log("run.recorded_late");
      }
      return;
    }
    entry.failures++;
    if (stopped || waitedMs >= PATIENCE_MS) {
      pending.remove(runId);
      LOG.atError()
          .addKeyValue("runId", runId)
          .addKeyValue("state", entry.ending.state().wireName())
          .addKeyValue("waitedMs", waitedMs)
          .addKeyValue("error", error.getMessage())
          .log("run.record_abandoned");
      return;
    }
    if (entry.failures == 1) {
      // Once per run: a long outage would otherwise log every retry.
      LOG.atWarn()
          .addKeyValue("runId", runId)
          .addKeyValue("state", entry.ending.state().wireName())
          .addKeyValue("error", error.getMessage())
          .log("run.record_pending");
    }
    entry.timer =
        vertx.setTimer(
            entry.delayMs,
            id -> {
              entry.timer = -1;
              attempt(entry);
            });
    entry.delayMs = Math.min(entry.delayMs * 2, MAX_RETRY_MS);
  }
}
