package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.FollowUpRequest;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunEnding;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.TodoRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the agent sessions' queues and todo lists. A submitted run is checked (model, session), its
 * session stored, and it is queued behind the session's running run (bounded depth); runs of one
 * session execute one at a time, in order. A person's new message preempts the session's running run
 * and drops its request's waiting follow-ups ({@link Cancellation}); {@code scheduler.cancel} ends a
 * session's running run and drops its waiting ones; every run is watched ({@link Watchdog}). A running
 * run's meta actions come here as they happen: {@code todo} changes the session's list (reflected on
 * {@code agent:chat}); {@code add_detail} and {@code review} ask for follow-up runs, and a run about to
 * end {@code done} may get one from the scheduler's rules ({@link FollowUpRules}), together at most
 * {@code followups.maxFollowups} per user request, queued when the asking run ends {@code done} (its
 * final status is then {@code scheduled}) and dropped when it ends in error or is canceled.
 */
public final class SchedulerVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerVerticle.class);

  /**
   * How long past the watchdog and its cancel grace (or the runner's deadline, if longer) the scheduler
   * waits for the runner's answer: the watchdog always acts first, this only catches a lost answer.
   */
  static final long RUN_ANSWER_GRACE_MS = 5_000;

  private final Store store;
  private final ModelRegistry models;
  private final AppConfig config;
  private final Map<String, SessionQueue> queues = new HashMap<>();
  private TodoCommands todoCommands;
  private RunJournal journal;
  private InterruptedRunSweeper sweeper;
  private FollowUpRules followUpRules;
  private Watchdog watchdog;
  private Cancellation cancellation;

  public SchedulerVerticle(Store store, ModelRegistry models, AppConfig config) {
    this.store = store;
    this.models = models;
    this.config = config;
  }

  @Override
  public String name() {
    return "scheduler";
  }

  @Override
  protected Future<?> startVerticle() {
    todoCommands = new TodoCommands(store.todos());
    journal = new RunJournal(vertx, store.runs(), config.durability().heartbeatMs());
    sweeper =
        new InterruptedRunSweeper(
            vertx,
            store.runs(),
            config.durability().heartbeatMs(),
            config.durability().interruptedAfterMs());
    followUpRules = new FollowUpRules(config.followups(), store.todos());
    watchdog = new Watchdog(vertx, config.scheduler().watchdogMs());
    cancellation =
        new Cancellation(
            vertx,
            config.scheduler().cancelGraceMs(),
            journal,
            active -> settle(active.run.sessionId(), RunState.ERROR.wireName(), active));
    var bus = vertx.eventBus();
    journal.startHeartbeats();
    return Future.join(
        List.of(
            bus.<JsonObject>consumer(Address.SCHEDULER_SUBMIT, this::submit).completion(),
            bus.<JsonObject>consumer(Address.SCHEDULER_RUN_ENDING, this::runEnding).completion(),
            bus.<JsonObject>consumer(Address.SCHEDULER_CANCEL, this::cancel).completion(),
            bus.<JsonObject>consumer(Address.SCHEDULER_TODO, this::todo).completion(),
            bus.<JsonObject>consumer(Address.SCHEDULER_FOLLOW_UP, this::followUp).completion(),
            bus.<JsonObject>consumer(Address.SCHEDULER_TODOS, this::listTodos).completion(),
            new SessionCommands(bus, store, models, config.model().defaultModel())
                .register(this::answer),
            sweeper.start()));
  }

  private void submit(Message<JsonObject> message) {
    JsonObject body = message.body();
    String roomId = body.getString("roomId");
    // The request's model, else the session's (a new session takes the default).
    String requestedModel = body.getString("model");
    if (requestedModel != null && !usable(requestedModel, message)) {
      return;
    }
    String model = requestedModel != null ? requestedModel : config.model().defaultModel();
    // With an idempotency key the run and a session it creates get ids derived from the caller's
    // key, so a retry names the same ones: it is answered with the first run and nothing new is
    // queued, unless it is not the first request at all (another body with the same key): then it
    // is refused.
    IdempotencyKey key = IdempotencyKey.in(body);
    String runId =
        key == null ? UUID.randomUUID().toString() : store.idempotencyKeys().runId(key, roomId);
    Future<Optional<RunStore.RunRecord>> earlier =
        key == null
            ? Future.succeededFuture(Optional.empty())
            : store.runs().find(runId).recover(error -> Failure.storeFailed("read the run", error));
    earlier
        .compose(
            first ->
                first.isPresent()
                    ? retried(first.get(), key)
                    : session(body.getString("sessionId"), roomId, model, key)
                        .compose(
                            session -> {
                              String runModel =
                                  requestedModel != null ? requestedModel : session.model();
                              return runModel.equals(model) || usable(runModel, null)
                                  ? enqueue(session, body, runModel, runId, key)
                                  : Failure.future(
                                      FailureCode.MODEL_NOT_CONFIGURED,
                                      "the session's model '"
                                          + runModel
                                          + "' cannot be used now; name a model in the run or change the session's");
                            }))
        .onSuccess(message::reply)
        .onFailure(error -> Failure.replyTo(message, error));
  }

  /** Whether this server can call {@code model}; if not and {@code message} is given, it is answered with why. */
  private boolean usable(String model, Message<JsonObject> message) {
    ModelRegistry.Resolution resolution = models.resolve(model);
    if (resolution instanceof ModelRegistry.Ready) {
      return true;
    }
    if (message != null) {
      FailureCode code =
          resolution instanceof ModelRegistry.Unknown
              ? FailureCode.UNKNOWN_MODEL
              : FailureCode.MODEL_NOT_CONFIGURED;
      message.fail(
          code.wire(),
          resolution instanceof ModelRegistry.Unknown unknown
              ? unknown.message()
              : ((ModelRegistry.NotConfigured) resolution).message());
    }
    return false;
  }

  private static JsonObject accepted(RunStore.RunRecord run) {
    return new JsonObject().put("sessionId", run.sessionId()).put("runId", run.runId());
  }

  /** The answer to a request whose key already made {@code first}: that run again, if it is the same request. */
  private static Future<JsonObject> retried(RunStore.RunRecord first, IdempotencyKey key) {
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

  private Future<JsonObject> enqueue(
      Session session, JsonObject body, String model, String runId, IdempotencyKey idempotencyKey) {
    SessionQueue existing = queues.get(session.id());
    long wouldWait = existing == null ? 0 : existing.waitingOnceAPersonArrives();
    if (wouldWait >= config.scheduler().maxQueueDepth()) {
      return Failure.future(
          FailureCode.QUEUE_FULL,
          "session "
              + session.id()
              + " already has "
              + wouldWait
              + " runs waiting (limit "
              + config.scheduler().maxQueueDepth()
              + ")");
    }
    RunRequest run =
        new RunRequest(
            runId,
            session.id(),
            session.roomId(),
            body.getString("message"),
            model,
            Viewport.fromJson(body.getJsonObject("viewport")),
            RunRequest.selectionFrom(body),
            null);
    // Recorded before the client is told (the 202), so the run outlives this node in the store.
    return journal
        .accepted(run, idempotencyKey)
        .compose(
            recorded ->
                recorded.created()
                    ? Future.succeededFuture(queue(session, run, model))
                    : Future.succeededFuture(accepted(recorded.run())));
  }

  private JsonObject queue(Session session, RunRequest run, String model) {
    SessionQueue queue = queues.computeIfAbsent(session.id(), id -> new SessionQueue());
    cancellation.preemptFor(queue, run);
    queue.enqueuePersonRun(run);
    LOG.atInfo()
        .addKeyValue("roomId", run.roomId())
        .addKeyValue("sessionId", run.sessionId())
        .addKeyValue("runId", run.runId())
        .addKeyValue("model", model)
        .addKeyValue("messageChars", run.message().length())
        .addKeyValue("queued", queue.waiting.size())
        .log("run.submitted");
    if (queue.running()) {
      publishStatus(
          run,
          RunState.SCHEDULED,
          new JsonObject().put("runId", run.runId()).put("position", queue.waiting.size()));
    } else {
      vertx.runOnContext(next -> startNext(session.id()));
    }
    return new JsonObject().put("sessionId", session.id()).put("runId", run.runId());
  }

  private void startNext(String sessionId) {
    SessionQueue queue = queues.get(sessionId);
    if (queue == null || queue.running()) {
      return;
    }
    RunRequest run = queue.waiting.poll();
    if (run == null) {
      queues.remove(sessionId);
      return;
    }
    ActiveRun active = new ActiveRun(run);
    queue.active = active;
    watchdog.watch(
        active, reason -> cancellation.cancelRunning(active, FailureCode.WATCHDOG, reason));
    // Past the watchdog and its grace, or the runner's own deadline: the watchdog always comes
    // first.
    long patience =
        Math.max(
            config.runner().deadlineMs(),
            (long) config.scheduler().watchdogMs() + config.scheduler().cancelGraceMs());
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(patience + RUN_ANSWER_GRACE_MS);
    // Not part of the run request: the depth is for the run's log line; follow-ups of the same user
    // request still waiting make the run end `scheduled` rather than `done`.
    JsonObject ask =
        run.toJson()
            .put("queueDepthAtStart", queue.waiting.size())
            .put(
                "followUpsWaiting",
                queue.waiting.stream()
                    .filter(waiting -> waiting.requestRunId().equals(run.requestRunId()))
                    .count());
    journal
        .started(run)
        .compose(recorded -> vertx.eventBus().<JsonObject>request(Address.RUNNER_RUN, ask, options))
        .onComplete(
            outcome -> {
              if (active.ended()) {
                return; // given up as interrupted: a late answer changes nothing
              }
              String state;
              if (outcome.failed()) {
                Failure failure = Failure.of(outcome.cause());
                LOG.atWarn()
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("runId", run.runId())
                    .addKeyValue("code", failure.code())
                    .log("run.failed");
                JsonObject detail =
                    new JsonObject()
                        .put("runId", run.runId())
                        .put("code", failure.code().name())
                        .put("reason", failure.getMessage());
                journal
                    .ended(run, RunState.ERROR, detail)
                    .onComplete(recorded -> publishStatus(run, RunState.ERROR, detail));
                state = RunState.ERROR.wireName();
              } else {
                journal.forget(run);
                state = outcome.result().body().getString("state");
              }
              settle(sessionId, state, active);
            });
  }

  /**
   * The run has ended (once: the runner's answer, or given up as interrupted). Its follow-ups are queued
   * if it ended {@code done} or {@code scheduled} and nobody canceled it; otherwise dropped, those it had
   * announced as queued with a {@code canceled} status. Then the session's next run starts.
   */
  private void settle(String sessionId, String state, ActiveRun active) {
    if (!active.end(state)) {
      return;
    }
    watchdog.release(active);
    SessionQueue queue = queues.get(sessionId);
    if (queue == null || queue.active != active) {
      return;
    }
    queue.active = null;
    RunRequest run = active.run;
    boolean finished =
        RunState.SCHEDULED.wireName().equals(state) || RunState.DONE.wireName().equals(state);
    if (finished && !active.canceling()) {
      queue.enqueueFollowUps(run.requestRunId(), active.followUps);
    } else if (!active.followUps.isEmpty()) {
      if (finished) {
        cancellation.announceDropped(
            active.followUps, active.cancel.code(), active.cancel.reason());
      }
      LOG.atInfo()
          .addKeyValue("sessionId", sessionId)
          .addKeyValue("runId", run.runId())
          .addKeyValue("state", state)
          .addKeyValue("followUps", active.followUps.size())
          .log("followup.discarded");
    }
    queue.requestMayHaveEnded(run.requestRunId());
    startNext(sessionId);
  }

  /** The run a meta action names, if it is its session's running run: a finished run changes nothing. */
  private Future<ActiveRun> activeRun(String sessionId, String runId) {
    SessionQueue queue = sessionId == null ? null : queues.get(sessionId);
    if (queue == null || queue.active == null || !queue.active.run.runId().equals(runId)) {
      return Failure.future(
          FailureCode.INVALID_REQUEST, "run " + runId + " is not running in session " + sessionId);
    }
    return Future.succeededFuture(queue.active);
  }

  private void todo(Message<JsonObject> message) {
    TodoRequest request = TodoRequest.fromJson(message.body());
    activeRun(request.sessionId(), request.runId())
        .compose(
            active -> todoCommands.apply(request.sessionId(), request.params(), active.todoRefs))
        .onSuccess(
            change -> {
              vertx
                  .eventBus()
                  .publish(
                      RoomTopic.AGENT_CHAT.address(request.roomId()),
                      new AgentChat(
                              request.sessionId(), "system", change.chatText(), change.toJson())
                          .toJson());
              message.reply(change.toJson());
            })
        .onFailure(error -> Failure.replyTo(message, error));
  }

  private void followUp(Message<JsonObject> message) {
    FollowUpRequest request = FollowUpRequest.fromJson(message.body());
    activeRun(request.sessionId(), request.runId())
        .compose(
            active -> {
              SessionQueue queue = queues.get(request.sessionId());
              return grantFollowUp(
                      queue, active, request.reason(), request.message(), request.viewport())
                  .map(Future::succeededFuture)
                  .orElseGet(
                      () ->
                          Failure.future(
                              FailureCode.QUEUE_FULL,
                              "the user request "
                                  + active.run.requestRunId()
                                  + " already had "
                                  + queue.followUpsGranted(active.run.requestRunId())
                                  + " follow-ups (limit "
                                  + config.followups().maxFollowups()
                                  + ", followups.maxFollowups)"));
            })
        .onSuccess(message::reply)
        .onFailure(error -> Failure.replyTo(message, error));
  }

  /** A follow-up within the request's cap, as {@code {runId, number, reason}}; empty past the cap. */
  private java.util.Optional<JsonObject> grantFollowUp(
      SessionQueue queue, ActiveRun active, String reason, String text, Viewport viewport) {
    return queue
        .grantFollowUp(active, reason, text, viewport, config.followups().maxFollowups())
        .map(
            next -> {
              LOG.atInfo()
                  .addKeyValue("sessionId", next.sessionId())
                  .addKeyValue("runId", next.runId())
                  .addKeyValue("askedBy", active.run.runId())
                  .addKeyValue("reason", reason)
                  .addKeyValue("number", next.followUp().number())
                  .log("followup.accepted");
              return new JsonObject()
                  .put("runId", next.runId())
                  .put("number", next.followUp().number())
                  .put("reason", reason);
            });
  }

  /**
   * A run about to end {@code done} ({@link RunEnding}): the follow-up the scheduler's rules give it, if
   * any and within the cap, answered as {@code {followUps: [{runId, number, reason}]}}. A run being
   * canceled, or no longer running, gets none.
   */
  private void runEnding(Message<JsonObject> message) {
    RunEnding ending = RunEnding.fromJson(message.body());
    SessionQueue queue = ending.sessionId() == null ? null : queues.get(ending.sessionId());
    ActiveRun active = queue == null ? null : queue.active;
    if (active == null || !active.run.runId().equals(ending.runId()) || active.canceling()) {
      message.reply(new JsonObject().put("followUps", new JsonArray()));
      return;
    }
    followUpRules
        .judge(active, queue, ending.actionsApplied())
        .onComplete(
            judged -> {
              JsonArray granted = new JsonArray();
              if (judged.succeeded()
                  && judged.result().isPresent()
                  && !active.canceling()
                  && !active.ended()) {
                FollowUpRules.RuleFollowUp rule = judged.result().get();
                grantFollowUp(queue, active, rule.reason(), rule.message(), null)
                    .ifPresentOrElse(
                        granted::add,
                        () ->
                            LOG.atInfo()
                                .addKeyValue("runId", active.run.runId())
                                .addKeyValue("reason", rule.reason())
                                .addKeyValue("limit", config.followups().maxFollowups())
                                .log("followup.refused"));
              }
              message.reply(new JsonObject().put("followUps", granted));
            });
  }

  /**
   * {@code {sessionId}}: ends the session's running run ({@code canceled}, code CANCELED) and drops the
   * runs waiting (each announced {@code canceled}). Answers once the running run has ended:
   * {@code {sessionId, canceled: {runId, state} | null, dropped: [runIds]}}.
   */
  private void cancel(Message<JsonObject> message) {
    String sessionId = message.body() == null ? null : message.body().getString("sessionId");
    if (sessionId == null || sessionId.isBlank()) {
      message.fail(FailureCode.INVALID_REQUEST.wire(), "sessionId must be a non-empty string");
      return;
    }
    SessionLookup.existing(store.sessions(), sessionId, null)
        .compose(found -> cancellation.cancelSession(sessionId, queues.get(sessionId)))
        .onSuccess(message::reply)
        .onFailure(error -> Failure.replyTo(message, error));
  }

  /** {@code {sessionId}}: the session's todos in list order. */
  private void listTodos(Message<JsonObject> message) {
    String sessionId = message.body() == null ? null : message.body().getString("sessionId");
    if (sessionId == null || sessionId.isBlank()) {
      message.fail(FailureCode.INVALID_REQUEST.wire(), "sessionId must be a non-empty string");
      return;
    }
    SessionLookup.existing(store.sessions(), sessionId, null)
        .compose(
            found ->
                store
                    .todos()
                    .list(sessionId)
                    .recover(error -> Failure.storeFailed("read the todos", error)))
        .onSuccess(
            todos -> {
              JsonArray items = new JsonArray();
              todos.forEach(todo -> items.add(todo.toJson()));
              message.reply(new JsonObject().put("sessionId", sessionId).put("todos", items));
            })
        .onFailure(error -> Failure.replyTo(message, error));
  }

  private void publishStatus(RunRequest run, RunState state, JsonObject detail) {
    new AgentStatus(run.sessionId(), state, detail).publish(vertx.eventBus(), run.roomId());
  }

  /** Runs still waiting here end with the server; a run this node was running is canceled by the runner. */
  @Override
  public Future<?> stop() {
    journal.stop();
    sweeper.stop();
    List<Future<Void>> recorded = new java.util.ArrayList<>();
    for (SessionQueue queue : queues.values()) {
      recorded.addAll(cancellation.endWithServer(queue.waiting));
      queue.waiting.clear();
    }
    return Future.join(recorded);
  }

  @Override
  protected Future<JsonObject> health() {
    long running = queues.values().stream().filter(SessionQueue::running).count();
    long waiting = queues.values().stream().mapToLong(queue -> queue.waiting.size()).sum();
    return Future.succeededFuture(
        new JsonObject()
            .put("ok", true)
            .put("running", running)
            .put("waiting", waiting)
            .put("runsHeld", journal.held())
            .put("runsInterrupted", sweeper.swept()));
  }
}
