package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunCancel;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.SessionCanceled;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a session's work early. A running run is canceled by its runner ({@code runner.cancel}), which
 * publishes its {@code canceled} status once the action in hand has settled; a runner that has not
 * ended the run within {@code scheduler.cancelGraceMs} (its node stuck or gone) is given up: the
 * scheduler publishes {@code error} with code {@code INTERRUPTED} itself and the session's queue moves
 * on. Waiting runs are dropped, each with a {@code canceled} status so that no client waits for them.
 */
final class Cancellation {
  private static final Logger LOG = LoggerFactory.getLogger(Cancellation.class);
  static final String BY_REQUEST = "canceled by request";

  private final Vertx vertx;
  private final long graceMs;
  private final RunJournal journal;
  private final Consumer<ActiveRun> givenUp;

  /**
   * {@code givenUp} settles a run the scheduler gave up as interrupted, after its error status is out;
   * {@code journal} records the end of every run that ends here rather than in the runner.
   */
  Cancellation(Vertx vertx, long graceMs, RunJournal journal, Consumer<ActiveRun> givenUp) {
    this.vertx = vertx;
    this.graceMs = graceMs;
    this.journal = journal;
    this.givenUp = givenUp;
  }

  /**
   * Asks the runner to end the run as canceled with {@code code} and {@code reason}; a run already being
   * canceled keeps its first cancel. Completes with the run's final state, whoever ended it.
   */
  Future<String> cancelRunning(ActiveRun active, FailureCode code, String reason) {
    if (active.canceling() || active.ended()) {
      return active.whenEnded();
    }
    RunCancel cancel = new RunCancel(active.run.runId(), code, reason);
    active.cancel = cancel;
    LOG.atInfo()
        .addKeyValue("sessionId", active.run.sessionId())
        .addKeyValue("runId", cancel.runId())
        .addKeyValue("code", code.name())
        .log("run.cancel_requested");
    Address.RUNNER_CANCEL
        .ask(vertx.eventBus(), cancel, new DeliveryOptions().setSendTimeout(graceMs))
        .onFailure(
            error ->
                LOG.atInfo()
                    .addKeyValue("runId", cancel.runId())
                    .addKeyValue("code", Failure.of(error).code())
                    .log("run.cancel_not_taken"));
    // The runner's answer to the run itself is what ends it here; this only covers a runner that
    // never answers.
    vertx.setTimer(
        graceMs,
        id -> {
          if (!active.ended()) {
            interrupt(active, cancel);
          }
        });
    return active.whenEnded();
  }

  private void interrupt(ActiveRun active, RunCancel cancel) {
    LOG.atWarn()
        .addKeyValue("sessionId", active.run.sessionId())
        .addKeyValue("runId", cancel.runId())
        .addKeyValue("cancelCode", cancel.code().name())
        .addKeyValue("graceMs", graceMs)
        .log("run.interrupted");
    JsonObject detail =
        new JsonObject()
            .put("runId", cancel.runId())
            .put("code", FailureCode.INTERRUPTED.name())
            .put(
                "reason",
                "the runner did not end the run within "
                    + graceMs
                    + " ms of its cancel ("
                    + cancel.code()
                    + ": "
                    + cancel.reason()
                    + ")")
            .put("retryable", FailureCode.INTERRUPTED.retryable());
    // Recorded before it is told; a runner that answered meanwhile has ended the run its own way.
    journal
        .ended(active.run, RunState.ERROR, detail)
        .onComplete(
            recorded -> {
              if (!active.ended()) {
                publish(active.run, RunState.ERROR, detail);
                givenUp.accept(active);
              }
            });
  }

  /**
   * {@code POST /api/canvas-agent/cancel}: drops every run waiting in the session and cancels the
   * running one ({@code CANCELED}). Completes once that run has ended, with what was canceled.
   * {@code queue} is null for a session with nothing running or waiting.
   */
  Future<SessionCanceled> cancelSession(String sessionId, SessionQueue queue) {
    if (queue == null) {
      return Future.succeededFuture(new SessionCanceled(sessionId, null, List.of()));
    }
    List<String> dropped =
        dropWaiting(queue, waiting -> true, FailureCode.CANCELED, BY_REQUEST).stream()
            .map(RunRequest::runId)
            .toList();
    ActiveRun active = queue.active;
    if (active == null) {
      return Future.succeededFuture(new SessionCanceled(sessionId, null, dropped));
    }
    return cancelRunning(active, FailureCode.CANCELED, BY_REQUEST)
        .map(
            state ->
                new SessionCanceled(
                    sessionId,
                    new SessionCanceled.CanceledRun(active.run.runId(), RunState.fromWire(state)),
                    dropped));
  }

  /**
   * A person's new message {@code newer} preempts the session's running run (unless it is already being
   * canceled) and the follow-ups waiting, all of older requests: the person moved on. Earlier messages
   * that have not started keep their turn.
   */
  void preemptFor(SessionQueue queue, RunRequest newer) {
    ActiveRun running = queue.preemptable();
    if (running == null) {
      return;
    }
    String reason = "preempted by run " + newer.runId() + ", a newer message in the session";
    dropWaiting(queue, waiting -> waiting.followUp() != null, FailureCode.PREEMPTED, reason);
    cancelRunning(running, FailureCode.PREEMPTED, reason);
  }

  /** Takes the waiting runs {@code which} selects out of the queue, each announced {@code canceled}. */
  List<RunRequest> dropWaiting(
      SessionQueue queue, Predicate<RunRequest> which, FailureCode code, String reason) {
    List<RunRequest> dropped = queue.dropWaiting(which);
    announceDropped(dropped, code, reason);
    return dropped;
  }

  /** Runs that will never start, announced {@code canceled} with the code and reason of why. */
  void announceDropped(List<RunRequest> runs, FailureCode code, String reason) {
    for (RunRequest run : runs) {
      JsonObject detail =
          new JsonObject().put("runId", run.runId()).put("code", code.name()).put("reason", reason);
      if (run.followUp() != null) {
        detail.put("followUp", run.followUp().toJson());
      }
      journal
          .ended(run, RunState.CANCELED, detail)
          .onComplete(recorded -> publish(run, RunState.CANCELED, detail));
    }
    if (!runs.isEmpty()) {
      LOG.atInfo()
          .addKeyValue("sessionId", runs.get(0).sessionId())
          .addKeyValue("code", code.name())
          .addKeyValue("runs", runs.size())
          .log("runs.dropped");
    }
  }

  /**
   * Runs still waiting when the server stops, recorded and published as canceled so that a clean stop
   * leaves no run to be swept as interrupted; each future completes once its run is recorded.
   */
  List<Future<Void>> endWithServer(List<RunRequest> waiting) {
    List<Future<Void>> recorded = new ArrayList<>();
    for (RunRequest run : waiting) {
      JsonObject detail =
          new JsonObject()
              .put("runId", run.runId())
              .put("code", FailureCode.CANCELED.name())
              .put("reason", "the server is shutting down");
      if (run.followUp() != null) {
        detail.put("followUp", run.followUp().toJson());
      }
      recorded.add(
          journal
              .ended(run, RunState.CANCELED, detail)
              .onComplete(done -> publish(run, RunState.CANCELED, detail)));
    }
    return recorded;
  }

  private void publish(RunRequest run, RunState state, JsonObject detail) {
    new AgentStatus(run.sessionId(), state, detail).publish(vertx.eventBus(), run.roomId());
  }
}
