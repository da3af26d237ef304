package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The runs of each session and their states, so that a session's history survives the node that ran
 * it. A run is recorded {@code queued} when it is accepted (before its client is told), {@code
 * running} when it starts, and its final state when it ends. The node holding a live run renews its
 * heartbeat; a live run whose heartbeat stopped is marked {@code error} (INTERRUPTED) by any node's
 * sweeper, conditionally, so nodes sharing a database agree and a live node's runs are left alone.
 */
public interface RunStore {
  String QUEUED = "queued";
  String RUNNING = "running";

  /** The states of a run still in a node's hands; every other state is final. */
  Set<String> LIVE = Set.of(QUEUED, RUNNING);

  /**
   * Records an accepted run as queued (heartbeat now) and marks its session active. A run id already
   * recorded (a retry with the same idempotency key) is left as it is: the answer is the stored run,
   * {@code created} false, when it was recorded with the same request fingerprint; with another, the
   * call fails with {@link IdempotencyKeys#reused()} and changes nothing. Fails with
   * {@link UnknownSession} when the session does not exist (any more).
   */
  Future<Accepted> accept(NewRun run);

  /** The run starts: queued → running; a run not recorded before (a follow-up) is recorded running. */
  Future<Void> start(NewRun run);

  /**
   * The run's final state and detail, written only while it is queued or running; true when this call
   * wrote it (false: it had already ended, or was swept as interrupted).
   */
  Future<Boolean> finish(String runId, String state, JsonObject detail);

  /** Renews the heartbeat of these live runs. */
  Future<Void> heartbeat(Collection<String> runIds);

  /**
   * Marks every queued or running run whose heartbeat is older than {@code staleAfterMs} as
   * {@code error} with {@code detail} (plus its runId), and answers those runs. A run that has ended is
   * never touched, and neither is one of {@code heldHere}: the sweeping node holds those runs itself
   * (its heartbeats may be stale only because the store was away).
   */
  Future<List<RunRecord>> sweepInterrupted(
      long staleAfterMs, JsonObject detail, Collection<String> heldHere);

  Future<Optional<RunRecord>> find(String runId);

  /** The session's newest {@code limit} runs, newest first. */
  Future<List<RunRecord>> recent(String sessionId, int limit);

  /**
   * A run to record: the message only as its length (the text is in the session's chat history); with
   * an idempotency key, the client's key and the fingerprint of the request it came with.
   */
  record NewRun(
      String runId,
      String sessionId,
      String roomId,
      String idempotencyKey,
      int messageChars,
      String requestFingerprint) {
    /** A run without a request fingerprint: a follow-up, or a test's. */
    public NewRun(
        String runId, String sessionId, String roomId, String idempotencyKey, int messageChars) {
      this(runId, sessionId, roomId, idempotencyKey, messageChars, null);
    }
  }

  record Accepted(RunRecord run, boolean created) {}

  /** A recorded run; {@code requestFingerprint} is the keyed request's that created it (null without a key). */
  record RunRecord(
      String runId,
      String sessionId,
      String roomId,
      String state,
      JsonObject detail,
      int messageChars,
      long createdAtMillis,
      long updatedAtMillis,
      String requestFingerprint) {
    public RunRecord {
      detail = detail == null ? new JsonObject() : detail.copy();
    }

    @Override
    public JsonObject detail() {
      return detail.copy();
    }

    public boolean live() {
      return LIVE.contains(state);
    }

    public JsonObject toJson() {
      return new JsonObject()
          .put("runId", runId)
          .put("state", state)
          .put("detail", detail.copy())
          .put("messageChars", messageChars)
          .put("createdAt", createdAtMillis)
          .put("updatedAt", updatedAtMillis);
    }
  }
}
