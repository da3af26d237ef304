package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.FollowUpRequest;
import dev.canvasagent.bus.GrantedFollowUp;
import dev.canvasagent.bus.GrantedFollowUps;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunAccepted;
import dev.canvasagent.bus.RunEnding;
import dev.canvasagent.bus.RunOutcome;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunStart;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.SessionCanceled;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.bus.TodoChange;
import dev.canvasagent.bus.TodoList;
import dev.canvasagent.bus.TodoRequest;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the agent sessions' queues and todo lists. A submitted run is checked (model, session), its
 * session stored ({@link RunIntake}), and it is queued behind the session's running run (bounded
 * depth); runs of one session execute one at a time, in order. A person's new message preempts the
 * session's running run and drops its request's waiting follow-ups ({@link Cancellation}); {@code
 * scheduler.cancel} ends a session's running run and drops its waiting ones; every run is watched
 * ({@link Watchdog}). A running run's meta actions come here as they happen: {@code todo} changes
 * the session's list (reflected on {@code agent:chat}); {@code add_detail} and {@code review} ask
 * for follow-up runs, and a run about to end {@code done} may get one from the scheduler's rules
 * ({@link FollowUpRules}), together at most {@code followups.maxFollowups} per user request ({@link
 * FollowUpGrants}), queued when the asking run ends {@code done} (its final status is then {@code
 * scheduled}) and dropped when it ends in error or is canceled.
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
  private FinalWrites finals;
  private InterruptedRunSweeper sweeper;
  private FollowUpGrants followUps;
  private Watchdog watchdog;
  private Cancellation cancellation;
  private RunIntake intake;

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
    finals = new FinalWrites(vertx, store.runs());
    journal = new RunJournal(vertx, store.runs(), config.durability().heartbeatMs(), finals);
    sweeper =
        new InterruptedRunSweeper(
            vertx,
            store.runs(),
            config.durability().heartbeatMs(),
            config.durability().interruptedAfterMs(),
            journal::heldHere,
            store::ping);
    followUps =
        new FollowUpGrants(
            new FollowUpRules(config.followups(), store.todos()),
            config.followups().maxFollowups(),
            journal);
    watchdog = new Watchdog(vertx, config.scheduler().watchdogMs());
    cancellation =
        new Cancellation(
            vertx,
            config.scheduler().cancelGraceMs(),
            journal,
            active -> settle(active.run.sessionId(), RunState.ERROR.wireName(), active));
    intake =
        new RunIntake(
            store,
            models,
            config.model().defaultModel(),
            config.scheduler().maxQueueDepth(),
            journal,
            sessionId -> {
              SessionQueue queue = queues.get(sessionId);
              return queue == null ? 0 : queue.waitingOnceAPersonArrives();
            },
            this::queue);
    var bus = vertx.eventBus();
    journal.startHeartbeats();
    return Future.join(
        List.of(
            answer(Address.SCHEDULER_SUBMIT, intake::submit),
            answer(Address.SCHEDULER_RUN_ENDING, this::runEnding),
            answer(Address.SCHEDULER_CANCEL, this::cancel),
            answer(Address.SCHEDULER_TODO, this::todo),
            answer(Address.SCHEDULER_FOLLOW_UP, this::followUp),
            answer(Address.SCHEDULER_TODOS, this::listTodos),
            new SessionCommands(bus, store, models, config.model().defaultModel(), finals)
                .register(this::answer),
            sweeper.start()));
  }

  /**
   * A run {@link RunIntake} accepted joins its session's queue, preempting the running run if it
   * {@code preempts}; it starts now if nothing of the session runs.
   */
  private RunAccepted queue(Session session, RunRequest run, String model, boolean preempts) {
    SessionQueue queue = queues.computeIfAbsent(session.id(), id -> new SessionQueue());
    if (preempts) {
      cancellation.preemptFor(queue, run);
    }
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
    return new RunAccepted(session.id(), run.runId());
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
    RunStart start =
        new RunStart(
            run,
            queue.waiting.size(),
            (int)
                queue.waiting.stream()
                    .filter(waiting -> waiting.requestRunId().equals(run.requestRunId()))
                    .count());
    journal
        .started(run)
        .compose(
            started ->
                started
                    ? Address.RUNNER_RUN.ask(vertx.eventBus(), start, options)
                    : Future.<RunOutcome>succeededFuture(null))
        .onComplete(
            outcome -> {
              if (active.ended()) {
                return; // given up as interrupted: a late answer changes nothing
              }
              String state;
              if (outcome.succeeded() && outcome.result() == null) {
                // Not queued in the store any more: a retry took it to another node, or it ended
                // there (canceled, swept). It is not run here; whoever holds it tells its end.
                LOG.atInfo()
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("runId", run.runId())
                    .log("run.not_started");
                journal.forget(run);
                state = RunState.CANCELED.wireName();
              } else if (outcome.failed()) {
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
                RunOutcome ended = outcome.result();
                if (ended.recorded()) {
                  journal.forget(run);
                } else {
                  // Published, but not in the store: written here until the store answers.
                  journal.ended(run, ended.state(), ended.detail());
                }
                state = ended.state().wireName();
              }
              settle(sessionId, state, active);
            });
  }

  /**
   * The run has ended (once: the runner's answer, or given up as interrupted). Its follow-ups are queued
   * if it ended {@code done} or {@code scheduled} and nobody canceled it; otherwise dropped, each
   * recorded and announced {@code canceled}. Then the session's next run starts.
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
      // Recorded queued since they were granted: each ends canceled, so none is left for the
      // sweeper to take for a dead node's, and none that the run's status named is waited for.
      cancellation.announceDropped(
          active.followUps,
          active.canceling() ? active.cancel.code() : FailureCode.CANCELED,
          active.canceling()
              ? active.cancel.reason()
              : "the run that asked for it ended in " + state);
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

  private Future<TodoChange> todo(TodoRequest request) {
    return activeRun(request.sessionId(), request.runId())
        .compose(
            active -> todoCommands.apply(request.sessionId(), request.params(), active.todoRefs))
        .onSuccess(
            change ->
                RoomTopic.AGENT_CHAT.publish(
                    vertx.eventBus(),
                    request.roomId(),
                    new AgentChat(
                        request.sessionId(),
                        "system",
                        TodoCommands.chatText(change),
                        change.toJson())));
  }

  private Future<GrantedFollowUp> followUp(FollowUpRequest request) {
    return activeRun(request.sessionId(), request.runId())
        .compose(active -> followUps.asked(queues.get(request.sessionId()), active, request));
  }

  /**
   * A run about to end {@code done} ({@link RunEnding}): the follow-up the scheduler's rules give it, if
   * any. A run being canceled, or no longer running, gets none.
   */
  private Future<GrantedFollowUps> runEnding(RunEnding ending) {
    SessionQueue queue = ending.sessionId() == null ? null : queues.get(ending.sessionId());
    ActiveRun active = queue == null ? null : queue.active;
    if (active == null || !active.run.runId().equals(ending.runId()) || active.canceling()) {
      return Future.succeededFuture(new GrantedFollowUps(List.of()));
    }
    return followUps.ending(queue, active, ending.actionsApplied());
  }

  /**
   * Ends the session's running run ({@code canceled}, code CANCELED) and drops the runs waiting (each
   * announced {@code canceled}). Answers once the running run has ended.
   */
  private Future<SessionCanceled> cancel(SessionRef ref) {
    String sessionId = ref.sessionId();
    return SessionLookup.existing(store.sessions(), sessionId, null)
        .compose(found -> cancellation.cancelSession(sessionId, queues.get(sessionId)));
  }

  /** The session's todos in list order. */
  private Future<TodoList> listTodos(SessionRef ref) {
    return SessionLookup.existing(store.sessions(), ref.sessionId(), null)
        .compose(found -> todoCommands.list(ref.sessionId()));
  }

  private void publishStatus(RunRequest run, RunState state, JsonObject detail) {
    new AgentStatus(run.sessionId(), state, detail).publish(vertx.eventBus(), run.roomId());
  }

  /** Runs still waiting here end with the server; a run this node was running is canceled by the runner. */
  @Override
  public Future<?> stop() {
    journal.stop();
    sweeper.stop();
    List<Future<Void>> recorded = new ArrayList<>();
    for (SessionQueue queue : queues.values()) {
      recorded.addAll(cancellation.endWithServer(queue.waiting));
      queue.waiting.clear();
      if (queue.active != null) {
        // Granted to the running run and recorded queued: they end with the server too.
        recorded.addAll(cancellation.endWithServer(queue.active.followUps));
        queue.active.followUps.clear();
      }
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
            .put("runsEnding", finals.size())
            .put("runsInterrupted", sweeper.swept()));
  }
}
