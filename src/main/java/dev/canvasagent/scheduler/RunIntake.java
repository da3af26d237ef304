package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.bus.RunAccepted;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunSubmit;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.Store;
import io.vertx.core.Future;
import java.util.Optional;
import java.util.UUID;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a person's run request in ({@code scheduler.submit}): checks its model, finds its session
 * or creates one, checks that the session's queue has room, and records the run as accepted before
 * anyone is told; then hands it to the scheduler to queue. With an idempotency key a retry is
 * answered with the first run and nothing new is queued — unless that run can no longer run where it
 * was queued: still queued in the store but held by no one on this node (its node died, or another
 * node has it), the retry takes it in and queues it here (whichever node starts it first runs it,
 * once); interrupted before it ended, the retry is refused RUN_INTERRUPTED. A retry is never answered
 * {@code 202} for a run that will not run.
 */
final class RunIntake {
  private static final Logger LOG = LoggerFactory.getLogger(RunIntake.class);

  /**
   * Queues an accepted run of {@code session} with {@code model} and says so; a new message
   * {@code preempts} the session's running run, a retried one taken in after its node died does not.
   */
  interface Queue {
    RunAccepted queue(Session session, RunRequest run, String model, boolean preempts);
  }

  private final Store store;
  private final ModelRegistry models;
  private final String defaultModel;
  private final int maxQueueDepth;
  private final RunJournal journal;
  private final ToLongFunction<String> waitingAhead;
  private final Queue queue;

  /**
   * {@code waitingAhead}: how many runs of a session would wait ahead of a person's new message
   * (see {@link SessionQueue#waitingOnceAPersonArrives}).
   */
  RunIntake(
      Store store,
      ModelRegistry models,
      String defaultModel,
      int maxQueueDepth,
      RunJournal journal,
      ToLongFunction<String> waitingAhead,
      Queue queue) {
    this.store = store;
    this.models = models;
    this.defaultModel = defaultModel;
    this.maxQueueDepth = maxQueueDepth;
    this.journal = journal;
    this.waitingAhead = waitingAhead;
    this.queue = queue;
  }

  /**
   * The session the run belongs to, decided before it is taken in (so that it can be routed to that
   * session's owner): the one it names, else the id a new session gets — derived from the idempotency
   * key, so that a retry names the same one, or new.
   */
  String sessionIdFor(RunSubmit submit) {
    if (submit.sessionId() != null) {
      return submit.sessionId();
    }
    return submit.idempotency() == null
        ? UUID.randomUUID().toString()
        : store.idempotencyKeys().sessionOfRun(submit.idempotency(), submit.roomId());
  }

  /**
   * Takes the run in on the node that owns its session: {@code sessionId} is {@link #sessionIdFor}'s
   * answer, the new session's id when the submit names none.
   */
  Future<RunAccepted> submit(RunSubmit submit, String sessionId) {
    String roomId = submit.roomId();
    // The request's model, else the session's (a new session takes the default).
    String requestedModel = submit.model();
    Failure refused = requestedModel == null ? null : unusable(requestedModel);
    if (refused != null) {
      return Future.failedFuture(refused);
    }
    String model = requestedModel != null ? requestedModel : defaultModel;
    // With an idempotency key the run and a session it creates get ids derived from the caller's
    // key, so a retry names the same ones: it is answered with the first run and nothing new is
    // queued, unless it is not the first request at all (another body with the same key): then it
    // is refused.
    IdempotencyKey key = submit.idempotency();
    String runId =
        key == null ? UUID.randomUUID().toString() : store.idempotencyKeys().runId(key, roomId);
    Future<Optional<RunStore.RunRecord>> earlier =
        key == null
            ? Future.succeededFuture(Optional.empty())
            : store.runs().find(runId).recover(error -> Failure.storeFailed("read the run", error));
    return earlier.compose(
        first ->
            first.isPresent()
                ? retried(first.get(), key, submit, requestedModel)
                : session(submit.sessionId() == null ? sessionId : null, submit, model)
                    .compose(
                        session -> {
                          String runModel =
                              requestedModel != null ? requestedModel : session.model();
                          return runModel.equals(model) || unusable(runModel) == null
                              ? enqueue(session, submit, runModel, runId, key)
                              : Failure.future(
                                  FailureCode.MODEL_NOT_CONFIGURED,
                                  "the session's model '"
                                      + runModel
                                      + "' cannot be used now; name a model in the run or change the session's");
                        }));
  }

  /**
   * Why this server cannot call {@code model} (UNKNOWN_MODEL, MODEL_NOT_CONFIGURED); null when it
   * can.
   */
  private Failure unusable(String model) {
    ModelRegistry.Resolution resolution = models.resolve(model);
    if (resolution instanceof ModelRegistry.Unknown unknown) {
      return new Failure(FailureCode.UNKNOWN_MODEL, unknown.message());
    }
    if (resolution instanceof ModelRegistry.NotConfigured notConfigured) {
      return new Failure(FailureCode.MODEL_NOT_CONFIGURED, notConfigured.message());
    }
    return null;
  }

  private static RunAccepted accepted(RunStore.RunRecord run) {
    return new RunAccepted(run.sessionId(), run.runId());
  }

  /**
   * The answer to a request whose key already made {@code first}, if it is the same request: a run
   * queued in the store that this node does not hold is taken in and queued here; otherwise that run
   * again (see {@link #again}).
   */
  private Future<RunAccepted> retried(
      RunStore.RunRecord first, IdempotencyKey key, RunSubmit submit, String requestedModel) {
    if (!key.sameRequestAs(first.requestFingerprint())) {
      return Future.failedFuture(IdempotencyKeys.reused());
    }
    if (!RunStore.QUEUED.equals(first.state()) || journal.holds(first.runId())) {
      return again(first);
    }
    return SessionLookup.existing(store.sessions(), first.sessionId(), first.roomId())
        .compose(
            session -> {
              String model = requestedModel != null ? requestedModel : session.model();
              Failure refused = unusable(model);
              if (refused != null) {
                return Future.failedFuture(refused);
              }
              Failure full = queueFull(session);
              if (full != null) {
                return Future.failedFuture(full);
              }
              return journal
                  .adopt(first.runId())
                  .compose(
                      adopted -> {
                        if (adopted.isEmpty()) {
                          // Started or ended meanwhile: answered as it is now.
                          return store
                              .runs()
                              .find(first.runId())
                              .recover(error -> Failure.storeFailed("read the run", error))
                              .compose(now -> again(now.orElse(first)));
                        }
                        LOG.atInfo()
                            .addKeyValue("roomId", first.roomId())
                            .addKeyValue("sessionId", first.sessionId())
                            .addKeyValue("runId", first.runId())
                            .log("run.adopted");
                        // Older than anything the session runs now: it waits its turn, it
                        // preempts nothing.
                        return Future.succeededFuture(
                            queue.queue(
                                session,
                                request(first.runId(), session, submit, model),
                                model,
                                false));
                      });
            });
  }

  /**
   * A retry answered with the run its key made: a {@code 202} for it, unless it was interrupted before
   * it ended — then it will never run, and the retry is told so (RUN_INTERRUPTED).
   */
  private static Future<RunAccepted> again(RunStore.RunRecord run) {
    boolean interrupted =
        "error".equals(run.state())
            && FailureCode.INTERRUPTED.name().equals(run.detail().getString("code"));
    if (!interrupted) {
      return Future.succeededFuture(accepted(run));
    }
    return Failure.future(
        FailureCode.RUN_INTERRUPTED,
        "the run "
            + run.runId()
            + " this Idempotency-Key made was interrupted before it ended (its server stopped) and"
            + " will not run; anything it had committed stays. Send the message again with a new"
            + " Idempotency-Key to run it");
  }

  /** A new session with {@code newId}, or (newId null) the one the submit names. */
  private Future<Session> session(String newId, RunSubmit submit, String model) {
    if (newId != null) {
      return store
          .sessions()
          .create(new Session(newId, submit.roomId(), model, System.currentTimeMillis()))
          .recover(error -> Failure.storeFailed("store the session", error));
    }
    return SessionLookup.existing(store.sessions(), submit.sessionId(), submit.roomId());
  }

  /** QUEUE_FULL when the session's queue has no room for a person's run; null when it has. */
  private Failure queueFull(Session session) {
    long wouldWait = waitingAhead.applyAsLong(session.id());
    if (wouldWait < maxQueueDepth) {
      return null;
    }
    return new Failure(
        FailureCode.QUEUE_FULL,
        "session "
            + session.id()
            + " already has "
            + wouldWait
            + " runs waiting (limit "
            + maxQueueDepth
            + ")");
  }

  private static RunRequest request(String runId, Session session, RunSubmit submit, String model) {
    return new RunRequest(
        runId,
        session.id(),
        session.roomId(),
        submit.message(),
        model,
        submit.viewport(),
        submit.selection(),
        null);
  }

  private Future<RunAccepted> enqueue(
      Session session,
      RunSubmit submit,
      String model,
      String runId,
      IdempotencyKey idempotencyKey) {
    Failure full = queueFull(session);
    if (full != null) {
      return Future.failedFuture(full);
    }
    RunRequest run = request(runId, session, submit, model);
    // Recorded before the client is told (the 202), so the run outlives this node in the store.
    return journal
        .accepted(run, idempotencyKey)
        .compose(
            recorded ->
                recorded.created()
                    ? Future.succeededFuture(queue.queue(session, run, model, true))
                    : Future.succeededFuture(accepted(recorded.run())));
  }
}
