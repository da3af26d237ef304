package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.DrainRequest;
import dev.canvasagent.bus.Drained;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.FollowUpRequest;
import dev.canvasagent.bus.GrantedFollowUp;
import dev.canvasagent.bus.GrantedFollowUps;
import dev.canvasagent.bus.OwnedRunSubmit;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunAccepted;
import dev.canvasagent.bus.RunCancel;
import dev.canvasagent.bus.RunEnding;
import dev.canvasagent.bus.RunOutcome;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunStart;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.RunSubmit;
import dev.canvasagent.bus.SessionCanceled;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.bus.TodoChange;
import dev.canvasagent.bus.TodoList;
import dev.canvasagent.bus.TodoRequest;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 *
 * <p>On a cluster each session has one owner, {@code cluster.ownerOf(sessionId)}: its queue and its
 * running run live there. A run or a cancel asked on another node is handed to the owner on the
 * owner's own address ({@code scheduler.node.<id>.submit}, {@code .cancel}); a run starts only once
 * its claim in the store holds (queued → running, while no other run of its session runs), so two
 * nodes that briefly both believe they own a session never run it twice. A node that no longer owns a
 * session lets its waiting runs go (its running run ends where it runs); the new owner takes them over
 * from the store ({@link QueueTakeover}), as it takes over those of a node that died.
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
  private final ClusterView cluster;
  private final Map<String, SessionQueue> queues = new HashMap<>();
  private QueueTakeover takeover;
  private boolean stopping;

  /** Set by {@code scheduler.drain}, once: the node is shutting down and takes no new run. */
  private Future<Drained> drained;

  private TodoCommands todoCommands;
  private RunJournal journal;
  private FinalWrites finals;
  private InterruptedRunSweeper sweeper;
  private FollowUpGrants followUps;
  private Watchdog watchdog;
  private Cancellation cancellation;
  private RunIntake intake;

  public SchedulerVerticle(Store store, ModelRegistry models, AppConfig config) {
    this(store, models, config, ClusterView.single());
  }

  /** As a member of {@code cluster}: the sessions it owns are queued and run here. */
  public SchedulerVerticle(
      Store store, ModelRegistry models, AppConfig config, ClusterView cluster) {
    this.store = store;
    this.models = models;
    this.config = config;
    this.cluster = cluster;
  }

  @Override
  public String name() {
    return "scheduler";
  }

  @Override
  protected Future<?> startVerticle() {
    todoCommands = new TodoCommands(store.todos());
    finals = new FinalWrites(vertx, store.runs());
    journal =
        new RunJournal(
            vertx, store.runs(), config.durability().heartbeatMs(), finals, cluster.nodeId());
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
    takeover =
        new QueueTakeover(
            vertx,
            store.runs(),
            journal,
            cluster,
            config.durability().heartbeatMs(),
            config.durability().interruptedAfterMs(),
            this::takeUp,
            () -> stopping);
    var bus = vertx.eventBus();
    journal.startHeartbeats();
    String node = cluster.nodeId();
    SchedulerViews views = new SchedulerViews(bus, store, cluster, queues);
    return Future.join(
            List.of(
                answer(Address.SCHEDULER_SUBMIT, this::submit),
                answer(Address.SCHEDULER_RUN_ENDING, this::runEnding),
                answer(Address.SCHEDULER_CANCEL, this::cancel),
                answer(Address.SCHEDULER_DRAIN, this::drain),
                answer(Address.SCHEDULER_RUN_REVERT, new RunReverts(bus, store.runs())::revert),
                answerAcrossNodes(
                    Address.schedulerNodeSubmit(node),
                    owned ->
                        refuseWhileDraining()
                            .compose(open -> intake.submit(owned.submit(), owned.sessionId()))),
                answerAcrossNodes(Address.schedulerNodeCancel(node), this::cancelOwned),
                answerAcrossNodes(Address.schedulerNodeCancelRun(node), this::cancelRunHere),
                answer(Address.SCHEDULER_TODO, this::todo),
                answer(Address.SCHEDULER_FOLLOW_UP, this::followUp),
                answer(Address.SCHEDULER_TODOS, this::listTodos),
                answer(Address.SCHEDULER_ROOM_RUNS, views::roomRuns),
                answer(Address.SCHEDULER_SESSION_ACTIVITY, views::sessionActivity),
                answerAcrossNodes(
                    Address.schedulerNodeSessionActivity(node), views::ownedSessionActivity),
                new SessionCommands(bus, store, models, config.model().defaultModel(), finals)
                    .register(this::answer),
                sweeper.start()))
        .onSuccess(
            started -> {
              cluster.onMembersChanged(members -> letGoOfSessionsOwnedElsewhere());
              takeover.start();
            });
  }

  /**
   * The members changed: the sessions this node no longer owns let their waiting runs go to their new
   * owners at once (so those run them in order, before what reaches the new owner later); a run
   * running here ends here.
   */
  private void letGoOfSessionsOwnedElsewhere() {
    if (stopping) {
      return;
    }
    for (String sessionId : List.copyOf(queues.keySet())) {
      if (!cluster.owns(sessionId)) {
        letGo(sessionId, queues.get(sessionId));
      }
    }
  }

  /**
   * {@code scheduler.submit}: taken in here when this node owns the run's session, else handed to its
   * owner. An owner that does not answer (it just died, and the cluster has not yet noticed) fails the
   * request TIMEOUT, retryable: a retry with the same Idempotency-Key finds the run if it was taken in.
   */
  private Future<RunAccepted> submit(RunSubmit submit) {
    if (drained != null) {
      return refuseWhileDraining();
    }
    String sessionId = intake.sessionIdFor(submit);
    String owner = cluster.ownerOf(sessionId);
    if (owner.equals(cluster.nodeId())) {
      return intake.submit(submit, sessionId);
    }
    return Address.schedulerNodeSubmit(owner)
        .ask(vertx.eventBus(), new OwnedRunSubmit(submit, sessionId))
        .recover(error -> Future.failedFuture(ownerSilent(error, owner, sessionId)));
  }

  /**
   * A session's owner that did not answer (no handler: it is gone; or no answer in time): TIMEOUT,
   * retryable. Its coded answer (QUEUE_FULL, SESSION_NOT_FOUND, …) passes through as it is.
   */
  private static Failure ownerSilent(Throwable error, String owner, String sessionId) {
    Failure failure = Failure.of(error);
    boolean silent =
        error instanceof ReplyException reply
            && (reply.failureType() == ReplyFailure.NO_HANDLERS
                || reply.failureType() == ReplyFailure.TIMEOUT);
    if (!silent) {
      return failure;
    }
    return new Failure(
        FailureCode.TIMEOUT,
        "node "
            + owner
            + ", which owns session "
            + sessionId
            + ", did not answer ("
            + failure.getMessage()
            + "); retry (with the same Idempotency-Key)");
  }

  /**
   * A run {@link RunIntake} accepted joins its session's queue, preempting the running run if it
   * {@code preempts}; it starts now if nothing of the session runs.
   */
  private RunAccepted queue(Session session, RunRequest run, String model, boolean preempts) {
    SessionQueue queue = queues.computeIfAbsent(session.id(), id -> new SessionQueue());
    if (preempts) {
      if (queue.claiming) {
        queue.preemptsOnStart = run;
      } else if (queue.preemptable() == null) {
        preemptElsewhere(queue, run);
      }
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

  /**
   * Starts the session's first waiting run once no earlier run of the session waits on another node
   * and its claim in the store holds; a session this node no longer owns lets its waiting runs go to
   * its owner instead.
   */
  private void startNext(String sessionId) {
    SessionQueue queue = queues.get(sessionId);
    if (queue == null || queue.running() || stopping || drained != null) {
      return;
    }
    if (!cluster.owns(sessionId)) {
      letGo(sessionId, queue);
      return;
    }
    RunRequest run = queue.waiting.peek();
    if (run == null) {
      queues.remove(sessionId);
      return;
    }
    queue.checking = true;
    earlierHeldElsewhere(run)
        .onComplete(
            earlier -> {
              queue.checking = false;
              if (queue.waiting.peek() != run) {
                // Runs taken over went ahead of it, or it was dropped: the queue's first goes next.
                vertx.runOnContext(next -> startNext(sessionId));
                return;
              }
              if (earlier.failed() || !earlier.result().isEmpty()) {
                LOG.atInfo()
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("runId", run.runId())
                    .addKeyValue("earlier", earlier.failed() ? "unknown" : earlier.result().size())
                    .log("run.waits_for_earlier");
                retryLater(sessionId, queue);
                return;
              }
              claim(sessionId, queue, run);
            });
  }

  /**
   * The session's queued runs that come before {@code run} and that this node does not hold: those
   * its previous owner queued (it died, or left) until this node has taken them over, which then run
   * first. A store that does not answer fails it: without the store's word nothing starts.
   */
  private Future<List<String>> earlierHeldElsewhere(RunRequest run) {
    return store
        .runs()
        .queuedBefore(run.sessionId(), run.runId())
        .map(earlier -> earlier.stream().filter(runId -> !journal.holds(runId)).toList());
  }

  /** Claims the session's first waiting run in the store, and runs it once the claim holds. */
  private void claim(String sessionId, SessionQueue queue, RunRequest run) {
    queue.claiming = true;
    journal
        .started(run)
        .onComplete(
            claimed -> {
              queue.claiming = false;
              RunRequest newer = queue.preemptsOnStart;
              queue.preemptsOnStart = null;
              RunStore.Claim claim = claimed.result();
              if (queue.waiting.peek() != run) {
                // Dropped while it was claimed (a cancel): it ends canceled in the store, not here.
                vertx.runOnContext(next -> startNext(sessionId));
                return;
              }
              if (claim == RunStore.Claim.BUSY) {
                if (newer != null) {
                  preemptElsewhere(queue, newer);
                }
                LOG.atInfo()
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("runId", run.runId())
                    .log("run.claim_busy");
                retryLater(sessionId, queue);
                return;
              }
              queue.waiting.poll();
              if (claim == RunStore.Claim.GONE) {
                // Not queued in the store any more: another node took it (a retry, or a takeover),
                // or it ended there (canceled, swept). It is not run here; whoever holds it tells
                // its end.
                LOG.atInfo()
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("runId", run.runId())
                    .log("run.not_started");
                journal.forget(run);
                queue.requestMayHaveEnded(run.requestRunId());
                startNext(sessionId);
                return;
              }
              run(sessionId, queue, run);
              if (newer != null) {
                cancellation.preemptFor(queue, newer);
              }
            });
  }

  /**
   * Another run of the session is running (on the node that owned it before, or its end is not yet
   * written), or an earlier one waits on another node: the start is tried again every {@code
   * durability.heartbeatMs}.
   */
  private void retryLater(String sessionId, SessionQueue queue) {
    if (queue.retryTimer >= 0) {
      return;
    }
    queue.retryTimer =
        vertx.setTimer(
            config.durability().heartbeatMs(),
            id -> {
              queue.retryTimer = -1;
              startNext(sessionId);
            });
  }

  /**
   * This node no longer owns the session (a member joined, or it is stopping): its waiting runs go to
   * the owner, who takes them over from the store; a run running here ends here first.
   */
  private void letGo(String sessionId, SessionQueue queue) {
    if (queue.claiming) {
      return; // its claim's answer comes back here, and lets go of the rest
    }
    if (queue.waiting.isEmpty()) {
      if (queue.idle()) {
        queues.remove(sessionId);
      }
      return;
    }
    List<RunRequest> leaving = new ArrayList<>(queue.waiting);
    queue.waiting.clear();
    leaving.forEach(run -> queue.requestMayHaveEnded(run.requestRunId()));
    LOG.atInfo()
        .addKeyValue("sessionId", sessionId)
        .addKeyValue("runs", leaving.size())
        .addKeyValue("owner", cluster.ownerOf(sessionId))
        .log("queue.let_go");
    journal.release(leaving);
    if (queue.idle()) {
      queues.remove(sessionId);
    }
  }

  /** Runs taken over from the store ({@link QueueTakeover}) join the session's queue, first. */
  private void takeUp(String sessionId, List<RunRequest> runs) {
    SessionQueue queue = queues.computeIfAbsent(sessionId, id -> new SessionQueue());
    queue.takeUp(runs);
    startNext(sessionId);
  }

  /**
   * A person's new message for a session whose running run is on another node (the one that owned
   * the session until a member joined): that run is preempted there, and the follow-ups waiting here
   * with it.
   */
  private void preemptElsewhere(SessionQueue queue, RunRequest newer) {
    store
        .runs()
        .running(newer.sessionId())
        .onSuccess(
            running ->
                running
                    .filter(elsewhere -> isOtherNode(elsewhere.nodeId()))
                    .ifPresent(
                        elsewhere -> {
                          String reason =
                              "preempted by run "
                                  + newer.runId()
                                  + ", a newer message in the session";
                          cancellation.dropWaiting(
                              queue,
                              waiting -> waiting.followUp() != null,
                              FailureCode.PREEMPTED,
                              reason);
                          cancelElsewhere(
                                  elsewhere,
                                  new RunCancel(elsewhere.runId(), FailureCode.PREEMPTED, reason))
                              .onFailure(
                                  // Its node is gone: the sweeper ends the run within the grace.
                                  error ->
                                      LOG.atInfo()
                                          .addKeyValue("runId", elsewhere.runId())
                                          .addKeyValue("nodeId", elsewhere.nodeId())
                                          .addKeyValue("code", Failure.of(error).code())
                                          .log("run.cancel_not_taken"));
                        }));
  }

  private boolean isOtherNode(String nodeId) {
    return nodeId != null && !nodeId.equals(cluster.nodeId());
  }

  /** Asks the node running {@code running} to cancel it; answers what it canceled. */
  private Future<SessionCanceled> cancelElsewhere(RunStore.Running running, RunCancel cancel) {
    LOG.atInfo()
        .addKeyValue("runId", running.runId())
        .addKeyValue("nodeId", running.nodeId())
        .addKeyValue("code", cancel.code().name())
        .log("run.cancel_sent");
    long patience = (long) config.scheduler().cancelGraceMs() + RUN_ANSWER_GRACE_MS;
    return Address.schedulerNodeCancelRun(running.nodeId())
        .ask(vertx.eventBus(), cancel, new DeliveryOptions().setSendTimeout(patience));
  }

  /**
   * {@code scheduler.node.<id>.cancel_run}: cancels the run by that id if it runs here, answering
   * once it has ended; names no run when none by that id runs here.
   */
  private Future<SessionCanceled> cancelRunHere(RunCancel cancel) {
    for (Map.Entry<String, SessionQueue> entry : queues.entrySet()) {
      ActiveRun active = entry.getValue().active;
      if (active != null && active.run.runId().equals(cancel.runId())) {
        return cancellation
            .cancelRunning(active, cancel.code(), cancel.reason())
            .map(
                state ->
                    new SessionCanceled(
                        entry.getKey(),
                        new SessionCanceled.CanceledRun(cancel.runId(), RunState.fromWire(state)),
                        List.of()));
      }
    }
    return Future.succeededFuture(new SessionCanceled(null, null, List.of()));
  }

  /** Runs a claimed run: the runner answers once it has ended. */
  private void run(String sessionId, SessionQueue queue, RunRequest run) {
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
    Address.RUNNER_RUN
        .ask(vertx.eventBus(), start, options)
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
    if (drained != null) {
      return refuseWhileDraining();
    }
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
    if (active == null
        || !active.run.runId().equals(ending.runId())
        || active.canceling()
        || drained != null) {
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
    String owner = cluster.ownerOf(sessionId);
    if (owner.equals(cluster.nodeId())) {
      return cancelOwned(ref);
    }
    long patience = (long) config.scheduler().cancelGraceMs() + RUN_ANSWER_GRACE_MS;
    return Address.schedulerNodeCancel(owner)
        .ask(vertx.eventBus(), ref, new DeliveryOptions().setSendTimeout(patience))
        .recover(error -> Future.failedFuture(ownerSilent(error, owner, sessionId)));
  }

  /**
   * Cancels the work of a session this node owns: its waiting runs, and its running run — here, or
   * on the node that still runs it (it owned the session until a member joined).
   */
  private Future<SessionCanceled> cancelOwned(SessionRef ref) {
    String sessionId = ref.sessionId();
    return SessionLookup.existing(store.sessions(), sessionId, null)
        .compose(found -> cancellation.cancelSession(sessionId, queues.get(sessionId)))
        .compose(
            canceled ->
                canceled.canceled() != null
                    ? Future.succeededFuture(canceled)
                    : cancelRunningElsewhere(sessionId, canceled));
  }

  /** The session's run still running on another node, canceled there; {@code here} if none is. */
  private Future<SessionCanceled> cancelRunningElsewhere(String sessionId, SessionCanceled here) {
    return store
        .runs()
        .running(sessionId)
        .recover(error -> Failure.storeFailed("read the session's running run", error))
        .compose(
            running -> {
              if (running.isEmpty() || !isOtherNode(running.get().nodeId())) {
                return Future.succeededFuture(here);
              }
              return cancelElsewhere(
                      running.get(),
                      new RunCancel(
                          running.get().runId(), FailureCode.CANCELED, Cancellation.BY_REQUEST))
                  .map(there -> new SessionCanceled(sessionId, there.canceled(), here.dropped()))
                  .recover(
                      // Its node is gone (the members have not changed yet): nothing runs there
                      // to cancel, and the sweeper ends its run within the grace.
                      error ->
                          error instanceof ReplyException reply
                                  && reply.failureType() == ReplyFailure.NO_HANDLERS
                              ? Future.succeededFuture(here)
                              : Future.failedFuture(Failure.of(error)));
            });
  }

  /** The session's todos in list order. */
  private Future<TodoList> listTodos(SessionRef ref) {
    return SessionLookup.existing(store.sessions(), ref.sessionId(), null)
        .compose(found -> todoCommands.list(ref.sessionId()));
  }

  /** Completes on this verticle's next turn, once what the current one does is done. */
  private Future<Void> nextTurn() {
    Promise<Void> turn = Promise.promise();
    vertx.runOnContext(next -> turn.complete());
    return turn.future();
  }

  /** SHUTTING_DOWN once the node drains; nothing otherwise. */
  private <T> Future<T> refuseWhileDraining() {
    return drained == null ? Future.succeededFuture() : Failure.shuttingDown("takes no new run");
  }

  /**
   * {@code scheduler.drain}: the node is shutting down. From now on it takes no run (SHUTTING_DOWN),
   * starts none of the waiting ones and grants no follow-up; the running runs have {@code graceMs}
   * to end by themselves, and those still going then are canceled (code CANCELED, their final status
   * published while the streams are still open). The waiting runs then end with the server, or go to
   * their sessions' next owners when other members remain, as {@link #stop()} would do. Asked twice,
   * it answers the first drain's outcome.
   */
  private Future<Drained> drain(DrainRequest request) {
    if (drained != null) {
      return drained;
    }
    List<ActiveRun> running =
        queues.values().stream().map(queue -> queue.active).filter(Objects::nonNull).toList();
    LOG.atInfo()
        .addKeyValue("running", running.size())
        .addKeyValue(
            "waiting", queues.values().stream().mapToInt(queue -> queue.waiting.size()).sum())
        .addKeyValue("graceMs", request.graceMs())
        .log("scheduler.draining");
    Promise<Void> graceOver = Promise.promise();
    long timer = vertx.setTimer(Math.max(1, request.graceMs()), id -> graceOver.tryComplete());
    Future.join(running.stream().map(ActiveRun::whenEnded).toList())
        .onComplete(
            allEnded -> {
              vertx.cancelTimer(timer);
              graceOver.tryComplete();
            });
    drained =
        graceOver
            .future()
            // A run's end completes inside its settle, which queues its follow-ups after: the
            // next turn sees them.
            .compose(over -> nextTurn())
            .compose(
                over -> {
                  // Every run still going, one whose claim was under way when the drain began
                  // included.
                  List<ActiveRun> still =
                      queues.values().stream()
                          .map(queue -> queue.active)
                          .filter(active -> active != null && !active.ended())
                          .toList();
                  int finished = (int) running.stream().filter(ActiveRun::ended).count();
                  String reason =
                      "the server is shutting down: the run was still going at the end of the "
                          + request.graceMs()
                          + " ms shutdown grace";
                  return Future.join(
                          still.stream()
                              .map(
                                  active ->
                                      cancellation.cancelRunning(
                                          active, FailureCode.CANCELED, reason))
                              .toList())
                      .otherwiseEmpty()
                      .compose(canceled -> nextTurn())
                      .compose(
                          canceled ->
                              endWaiting()
                                  .map(
                                      notStarted ->
                                          new Drained(finished, still.size(), notStarted)));
                })
            .onSuccess(
                outcome ->
                    LOG.atInfo()
                        .addKeyValue("finished", outcome.finished())
                        .addKeyValue("canceled", outcome.canceled())
                        .addKeyValue("notStarted", outcome.notStarted())
                        .log("scheduler.drained"));
    return drained;
  }

  private void publishStatus(RunRequest run, RunState state, JsonObject detail) {
    new AgentStatus(run.sessionId(), state, detail).publish(vertx.eventBus(), run.roomId());
  }

  /**
   * Runs still waiting here end with the server — unless other members remain: then they are let go
   * to their sessions' next owners, who take them over once this node has left. A run this node was
   * running is canceled by the runner, and the follow-ups it was granted end with it.
   */
  @Override
  public Future<?> stop() {
    stopping = true;
    journal.stop();
    sweeper.stop();
    takeover.stop();
    return endWaiting();
  }

  /**
   * The runs waiting here, and the follow-ups granted to a running run, end with the server
   * ({@code canceled}, each recorded and announced) — unless other members remain: then the waiting
   * ones are let go to their sessions' next owners, who take them over once this node has left.
   * Answers how many there were.
   */
  private Future<Integer> endWaiting() {
    boolean othersRemain = cluster.clustered() && cluster.members().size() > 1;
    List<Future<Void>> recorded = new ArrayList<>();
    List<RunRequest> leaving = new ArrayList<>();
    int waiting = 0;
    for (SessionQueue queue : queues.values()) {
      if (queue.retryTimer >= 0) {
        vertx.cancelTimer(queue.retryTimer);
        queue.retryTimer = -1;
      }
      waiting += queue.waiting.size();
      if (othersRemain) {
        leaving.addAll(queue.waiting);
      } else {
        recorded.addAll(cancellation.endWithServer(queue.waiting));
      }
      queue.waiting.clear();
      if (queue.active != null) {
        // Granted to the running run and recorded queued: they end with the server too.
        recorded.addAll(cancellation.endWithServer(queue.active.followUps));
        queue.active.followUps.clear();
      }
    }
    if (!leaving.isEmpty()) {
      LOG.atInfo()
          .addKeyValue("runs", leaving.size())
          .addKeyValue("members", cluster.members().size())
          .log("queue.let_go_on_stop");
      recorded.add(journal.release(leaving).otherwise(error -> null));
    }
    int ended = waiting;
    // A final state the store did not take is written again by FinalWrites; it holds up nothing.
    return Future.join(recorded).transform(all -> Future.succeededFuture(ended));
  }

  @Override
  protected Future<JsonObject> health() {
    long running = queues.values().stream().filter(SessionQueue::running).count();
    long waiting = queues.values().stream().mapToLong(queue -> queue.waiting.size()).sum();
    JsonArray sessions = new JsonArray();
    queues.forEach(
        (sessionId, queue) ->
            sessions.add(
                new JsonObject()
                    .put("sessionId", sessionId)
                    .put("runId", queue.active == null ? null : queue.active.run.runId())
                    .put("waiting", queue.waiting.size())
                    .put("owned", cluster.owns(sessionId))));
    return Future.succeededFuture(
        new JsonObject()
            .put("ok", true)
            .put("nodeId", cluster.nodeId())
            .put("sessions", sessions)
            .put("runsTakenOver", takeover.takenOver())
            .put("running", running)
            .put("waiting", waiting)
            .put("draining", drained != null)
            .put("runsHeld", journal.held())
            .put("runsEnding", finals.size())
            .put("runsInterrupted", sweeper.swept()));
  }
}
