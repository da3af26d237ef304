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

/**
 * Takes a person's run request in ({@code scheduler.submit}): checks its model, finds its session
 * or creates one, checks that the session's queue has room, and records the run as accepted before
 * anyone is told; then hands it to the scheduler to queue. With an idempotency key a retry is
 * answered with the first run and nothing new is queued.
 */
final class RunIntake {
  /** Queues an accepted run of {@code session} with {@code model} and says so. */
  interface Queue {
    RunAccepted queue(Session session, RunRequest run, String model);
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

  Future<RunAccepted> submit(RunSubmit submit) {
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
                ? retried(first.get(), key)
                : session(submit.sessionId(), roomId, model, key)
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
   * The answer to a request whose key already made {@code first}: that run again, if it is the same
   * request.
   */
  private static Future<RunAccepted> retried(RunStore.RunRecord first, IdempotencyKey key) {
    return key.sameRequestAs(first.requestFingerprint())
        ? Future.succeededFuture(accepted(first))
        : Future.failedFuture(IdempotencyKeys.reused());
  }

  private Future<Session> session(
      String sessionId, String roomId, String model, IdempotencyKey idempotencyKey) {
    if (sessionId == null) {
      String newId =
          idempotencyKey == null
              ? UUID.randomUUID().toString()
              : store.idempotencyKeys().sessionOfRun(idempotencyKey, roomId);
      return store
          .sessions()
          .create(new Session(newId, roomId, model, System.currentTimeMillis()))
          .recover(error -> Failure.storeFailed("store the session", error));
    }
    return SessionLookup.existing(store.sessions(), sessionId, roomId);
  }

  private Future<RunAccepted> enqueue(
      Session session,
      RunSubmit submit,
      String model,
      String runId,
      IdempotencyKey idempotencyKey) {
    long wouldWait = waitingAhead.applyAsLong(session.id());
    if (wouldWait >= maxQueueDepth) {
      return Failure.future(
          FailureCode.QUEUE_FULL,
          "session "
              + session.id()
              + " already has "
              + wouldWait
              + " runs waiting (limit "
              + maxQueueDepth
              + ")");
    }
    RunRequest run =
        new RunRequest(
            runId,
            session.id(),
            session.roomId(),
            submit.message(),
            model,
            submit.viewport(),
            submit.selection(),
            null);
    // Recorded before the client is told (the 202), so the run outlives this node in the store.
    return journal
        .accepted(run, idempotencyKey)
        .compose(
            recorded ->
                recorded.created()
                    ? Future.succeededFuture(queue.queue(session, run, model))
                    : Future.succeededFuture(accepted(recorded.run())));
  }
}
