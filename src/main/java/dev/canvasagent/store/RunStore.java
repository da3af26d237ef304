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
 * heartbeat; a running run whose heartbeat stopped is marked {@code error} (INTERRUPTED) by any node's
 * sweeper, conditionally, so nodes sharing a database agree and a live node's runs are left alone; a
 * queued one is taken over by the node that owns its session ({@link #orphans}, {@link #takeOver}).
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

  /**
   * The run starts, as a node that holds it claims it: true when this call started it ({@link
   * #claim}, with no node named).
   */
  default Future<Boolean> start(NewRun run) {
    return claim(run, null).map(claim -> claim == Claim.STARTED);
  }

  /**
   * Node {@code nodeId} claims the run to start it: queued → running (its request erased), or a run
   * never recorded is recorded running, held by {@code nodeId}. {@link Claim#STARTED} when this call
   * started it; {@link Claim#GONE} when the run is recorded in another state (already started by
   * another node, canceled, swept as interrupted): then it must not run, since only one node may run
   * it and a run whose final status is out never runs after it; {@link Claim#BUSY} when another run
   * of its session is running (on this node or another): it stays queued, to be claimed again once
   * that run has ended.
   */
  Future<Claim> claim(NewRun run, String nodeId);

  /** What a {@link #claim} decided. */
  enum Claim {
    STARTED,
    GONE,
    BUSY
  }

  /**
   * The queued runs that no node holds any more, whose request is stored: every queued run whose
   * heartbeat is older than {@code staleAfterMs}, but those of {@code heldHere}, in the order their
   * sessions would run them (by session; each request in the order it was accepted, its follow-ups
   * after it by number). Each comes with the state of the run that asked for it, for a follow-up.
   */
  Future<List<Orphan>> orphans(long staleAfterMs, Collection<String> heldHere);

  /**
   * The session's queued runs (with their request) that come before run {@code runId} in the order
   * the session runs them — each request in the order it was accepted, its follow-ups after it by
   * number — wherever they are held; all of them for a run never recorded. A session's owner starts
   * a run only once none is held elsewhere: a run its dead or departed previous owner had queued is
   * taken over first, and runs first.
   */
  Future<List<String>> queuedBefore(String sessionId, String runId);

  /**
   * Node {@code nodeId} takes over these queued runs, each only while it is still queued and no node
   * renewed its heartbeat within {@code staleAfterMs} (so of two nodes taking over, one gets each);
   * answers the ids it got, whose heartbeat it renews from now on.
   */
  Future<List<String>> takeOver(Collection<String> runIds, long staleAfterMs, String nodeId);

  /**
   * A node lets these queued runs go (it stops, or no longer owns their session): their heartbeat is
   * made stale at once, so the sessions' owners take them over at their next look.
   */
  Future<Void> release(Collection<String> runIds);

  /** The session's running run and the node that claimed it, if one is running. */
  Future<Optional<Running>> running(String sessionId);

  /** A session's running run, and the node that runs it (null for a run started without one). */
  record Running(String runId, String nodeId) {}

  /**
   * A queued run no node holds: its record, the request it was queued with, and for a follow-up the
   * state of the run that asked for it (null for a person's run, or an asker not recorded).
   */
  record Orphan(RunRecord run, JsonObject request, String askedByState) {
    public Orphan {
      request = request.copy();
    }

    @Override
    public JsonObject request() {
      return request.copy();
    }
  }

  /**
   * A node takes in a run that is still queued, for a retry of the request that made it (the same
   * idempotency key): its heartbeat is renewed, so the sweeper leaves it to this node. Answers the
   * stored run while it is queued; empty when it is not (any more). Whoever starts it first runs it
   * ({@link #start}), so a run two nodes both hold still runs once.
   */
  Future<Optional<RunRecord>> adopt(String runId);

  /**
   * The run's final state and detail, written only while it is queued or running; true when this call
   * wrote it (false: it had already ended, or was swept as interrupted).
   */
  Future<Boolean> finish(String runId, String state, JsonObject detail);

  /** Renews the heartbeat of these live runs. */
  Future<Void> heartbeat(Collection<String> runIds);

  /**
   * Marks every running run whose heartbeat is older than {@code staleAfterMs} as {@code error} with
   * {@code detail} (plus its runId), and answers those runs; a queued run too, unless its request is
   * stored (then its session's owner takes it over, {@link #orphans}). A run that has ended is
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
   * an idempotency key, the client's key and the fingerprint of the request it came with; a follow-up
   * with what marks it as one ({@code {requestRunId, askedByRunId, number, reason}}, null for a
   * person's run), so that it still names its request after its node is gone; {@code request} the
   * run request as queued ({@code RunRequest}'s JSON), stored while the run is queued so that another
   * node can run it (null: a run that only its own node can run).
   */
  record NewRun(
      String runId,
      String sessionId,
      String roomId,
      String idempotencyKey,
      int messageChars,
      String requestFingerprint,
      JsonObject followUp,
      JsonObject request) {
    public NewRun {
      followUp = followUp == null ? null : followUp.copy();
      request = request == null ? null : request.copy();
    }

    public NewRun(
        String runId,
        String sessionId,
        String roomId,
        String idempotencyKey,
        int messageChars,
        String requestFingerprint,
        JsonObject followUp) {
      this(
          runId,
          sessionId,
          roomId,
          idempotencyKey,
          messageChars,
          requestFingerprint,
          followUp,
          null);
    }

    /** The same run, with the request another node would run it from. */
    public NewRun withRequest(JsonObject request) {
      return new NewRun(
          runId,
          sessionId,
          roomId,
          idempotencyKey,
          messageChars,
          requestFingerprint,
          followUp,
          request);
    }

    /** A person's run. */
    public NewRun(
        String runId,
        String sessionId,
        String roomId,
        String idempotencyKey,
        int messageChars,
        String requestFingerprint) {
      this(runId, sessionId, roomId, idempotencyKey, messageChars, requestFingerprint, null);
    }

    /** A run without a request fingerprint: a test's. */
    public NewRun(
        String runId, String sessionId, String roomId, String idempotencyKey, int messageChars) {
      this(runId, sessionId, roomId, idempotencyKey, messageChars, null, null);
    }

    /** A follow-up of the request {@code followUp} names. */
    public static NewRun followUp(
        String runId, String sessionId, String roomId, int messageChars, JsonObject followUp) {
      return new NewRun(runId, sessionId, roomId, null, messageChars, null, followUp);
    }
  }

  record Accepted(RunRecord run, boolean created) {}

  /**
   * A recorded run; {@code requestFingerprint} is the keyed request's that created it (null without a
   * key); {@code followUp} marks a follow-up (null for a person's run).
   */
  record RunRecord(
      String runId,
      String sessionId,
      String roomId,
      String state,
      JsonObject detail,
      int messageChars,
      long createdAtMillis,
      long updatedAtMillis,
      String requestFingerprint,
      JsonObject followUp) {
    public RunRecord {
      detail = detail == null ? new JsonObject() : detail.copy();
      followUp = followUp == null ? null : followUp.copy();
    }

    /** A person's run. */
    public RunRecord(
        String runId,
        String sessionId,
        String roomId,
        String state,
        JsonObject detail,
        int messageChars,
        long createdAtMillis,
        long updatedAtMillis,
        String requestFingerprint) {
      this(
          runId,
          sessionId,
          roomId,
          state,
          detail,
          messageChars,
          createdAtMillis,
          updatedAtMillis,
          requestFingerprint,
          null);
    }

    @Override
    public JsonObject detail() {
      return detail.copy();
    }

    @Override
    public JsonObject followUp() {
      return followUp == null ? null : followUp.copy();
    }

    /**
     * The detail as a status tells it: a follow-up's names its request ({@code followUp}), whoever
     * wrote it (the runner, a cancel, the sweeper) and while it is still queued or running.
     */
    public JsonObject statusDetail() {
      JsonObject status = detail.copy();
      if (followUp != null && !status.containsKey("followUp")) {
        status.put("followUp", followUp.copy());
      }
      return status;
    }

    public boolean live() {
      return LIVE.contains(state);
    }

    public JsonObject toJson() {
      return new JsonObject()
          .put("runId", runId)
          .put("state", state)
          .put("detail", statusDetail())
          .put("messageChars", messageChars)
          .put("createdAt", createdAtMillis)
          .put("updatedAt", updatedAtMillis);
    }
  }
}
