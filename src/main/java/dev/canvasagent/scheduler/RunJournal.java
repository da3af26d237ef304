package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.UnknownSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's record of its runs in the store: {@code queued} when accepted (before the client is
 * told; a follow-up when granted, before the run that asked for it can name it), with the request
 * another node would run it from; {@code running} when this node claims it (only from {@code queued},
 * and only while no other run of its session is running: a run already started or ended elsewhere is
 * not run again, and a session runs one run at a time across nodes); the
 * runner writes the final state before it publishes it, and the journal writes it when the runner
 * could not, and goes on writing it until the store answers ({@link FinalWrites}). While this node
 * holds a run (queued, running, or ending with a final state not yet written) it renews the run's
 * heartbeat every {@code durability.heartbeatMs}, so that no node's
 * sweeper takes it for the run of a dead node.
 */
final class RunJournal {
  private static final Logger LOG = LoggerFactory.getLogger(RunJournal.class);

  private final Vertx vertx;
  private final RunStore runs;
  private final long heartbeatMs;
  private final FinalWrites finals;
  private final String nodeId;

  /** The runs this node holds, by id, and whether each has started. */
  private final Map<String, Boolean> held = new LinkedHashMap<>();

  private long timer = -1;

  RunJournal(Vertx vertx, RunStore runs, long heartbeatMs, FinalWrites finals, String nodeId) {
    this.vertx = vertx;
    this.runs = runs;
    this.heartbeatMs = heartbeatMs;
    this.finals = finals;
    this.nodeId = nodeId;
  }

  void startHeartbeats() {
    timer = vertx.setPeriodic(heartbeatMs, id -> beat());
  }

  /**
   * Records an accepted run as queued. When the run id was recorded before (a retried request), the
   * answer is that first record and {@code created} is false: nothing new is queued. The same key with
   * another request fails IDEMPOTENCY_KEY_REUSED.
   */
  Future<RunStore.Accepted> accepted(RunRequest run, IdempotencyKey idempotencyKey) {
    return runs.accept(newRun(run, idempotencyKey))
        .recover(
            error ->
                error instanceof UnknownSession
                    ? Failure.future(FailureCode.SESSION_NOT_FOUND, error.getMessage())
                    : Failure.storeFailed("record the run", error))
        .onSuccess(
            accepted -> {
              if (accepted.created()) {
                held.put(run.runId(), false);
              }
            });
  }

  /**
   * Claims the run for this node ({@link RunStore#claim}): STARTED, it runs here; GONE, the store has
   * it in another state than queued (another node started it, or it ended: canceled, swept as
   * interrupted) and it must not run; BUSY, another run of its session is running (on another node
   * that held the session until now) and it stays queued, to be claimed again. A store that does not
   * answer is BUSY too: without the store's word nothing starts, so nothing can start twice.
   */
  Future<RunStore.Claim> started(RunRequest run) {
    held.put(run.runId(), true);
    return runs.claim(newRun(run, null), nodeId)
        .otherwise(
            error -> {
              LOG.atWarn()
                  .addKeyValue("runId", run.runId())
                  .addKeyValue("error", error.getMessage())
                  .log("run.claim_failed");
              return RunStore.Claim.BUSY;
            })
        .onSuccess(
            claim -> {
              if (claim != RunStore.Claim.STARTED) {
                // Still queued (or gone): held as queued, unless it ended meanwhile (a cancel).
                held.computeIfPresent(run.runId(), (runId, started) -> false);
              }
            });
  }

  /**
   * Takes over queued runs that no node holds any more ({@link RunStore#takeOver}): answers those this
   * node got, whose heartbeat it renews from now on.
   */
  Future<List<String>> takeOver(List<String> runIds, long staleAfterMs) {
    return runs.takeOver(runIds, staleAfterMs, nodeId)
        .onSuccess(taken -> taken.forEach(runId -> held.put(runId, false)));
  }

  /**
   * Lets these queued runs go to their sessions' owners ({@link RunStore#release}): this node no
   * longer renews their heartbeat, and the store marks them stale at once.
   */
  Future<Void> release(List<RunRequest> queued) {
    List<String> ids = queued.stream().map(RunRequest::runId).toList();
    ids.forEach(held::remove);
    return runs.release(ids)
        .onFailure(
            error ->
                LOG.atWarn()
                    .addKeyValue("runs", ids.size())
                    .addKeyValue("error", error.getMessage())
                    .log("run.release_failed"));
  }

  /** Whether this node holds the run (queued here, or running). */
  boolean holds(String runId) {
    return held.containsKey(runId);
  }

  /**
   * Takes in a run that is still queued in the store but held by no one here, for a retry of its
   * request ({@link RunStore#adopt}): from now on this node renews its heartbeat. Empty when it is not
   * queued any more.
   */
  Future<Optional<RunStore.RunRecord>> adopt(String runId) {
    return runs.adopt(runId)
        .recover(error -> Failure.storeFailed("take the run in", error))
        .onSuccess(adopted -> adopted.ifPresent(run -> held.put(run.runId(), false)));
  }

  /** The runner answered: it has recorded the final state itself. */
  void forget(RunRequest run) {
    held.remove(run.runId());
  }

  /**
   * The run ended without the runner recording it (no answer, it never started, or the store failed the
   * runner's write): record it here, and again until the store answers. Completes after the first
   * attempt.
   */
  Future<Void> ended(RunRequest run, RunState state, JsonObject detail) {
    // Pending in FinalWrites before it leaves `held`, so the run is never without a heartbeat.
    Future<Void> written = finals.write(run, state, detail);
    held.remove(run.runId());
    return written;
  }

  /** The runs accepted here that have not started (held only in this node's memory). */
  List<String> queuedHere() {
    return held.entrySet().stream()
        .filter(entry -> !entry.getValue())
        .map(Map.Entry::getKey)
        .toList();
  }

  int held() {
    return held.size();
  }

  /** Every run this node holds: queued, running, or ending with its final state not yet written. */
  Set<String> heldHere() {
    Set<String> here = new HashSet<>(held.keySet());
    here.addAll(finals.runIds());
    return here;
  }

  private void beat() {
    Set<String> here = heldHere();
    if (here.isEmpty()) {
      return;
    }
    runs.heartbeat(List.copyOf(here))
        .onFailure(
            error ->
                LOG.atWarn()
                    .addKeyValue("runs", here.size())
                    .addKeyValue("error", error.getMessage())
                    .log("run.heartbeat_failed"));
  }

  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    finals.stop();
  }

  /** The run to record, with the request another node would run it from. */
  private static RunStore.NewRun newRun(RunRequest run, IdempotencyKey idempotencyKey) {
    return bareNewRun(run, idempotencyKey).withRequest(run.toJson());
  }

  private static RunStore.NewRun bareNewRun(RunRequest run, IdempotencyKey idempotencyKey) {
    if (run.followUp() != null) {
      return RunStore.NewRun.followUp(
          run.runId(),
          run.sessionId(),
          run.roomId(),
          run.message().length(),
          run.followUp().toJson());
    }
    return idempotencyKey == null
        ? new RunStore.NewRun(
            run.runId(), run.sessionId(), run.roomId(), null, run.message().length())
        : new RunStore.NewRun(
            run.runId(),
            run.sessionId(),
            run.roomId(),
            idempotencyKey.key(),
            run.message().length(),
            idempotencyKey.fingerprint());
  }
}
