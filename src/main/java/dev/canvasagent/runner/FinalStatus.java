package dev.canvasagent.runner;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunEnding;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.runner.context.ChatRecorder;
import dev.canvasagent.store.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a run ends: why (the detail of its final status), what it did (the summary), and, once the
 * action in hand has settled, its final status recorded and published. {@code done} means the user's
 * request is finished, so a run after which follow-ups of that request are still to run ends
 * {@code scheduled} instead.
 */
final class FinalStatus {
  private static final Logger LOG = LoggerFactory.getLogger(FinalStatus.class);

  /** How long an ending run waits for the scheduler's rules before it ends {@code done} without them. */
  static final long RULES_ANSWER_MS = 2_000;

  /**
   * The final status as published: its state, its full detail, and whether the run's record holds it
   * (false: the store failed, and the scheduler writes it once the store answers).
   */
  record Published(RunState state, JsonObject detail, boolean recorded) {}

  private final EventBus bus;
  private final RunRequest request;
  private final RunStore runs;
  private final ChatRecorder history;
  private final ActionPipeline actions;
  private final MetaActions meta;
  private final RunStatuses statuses;

  /** {@code {runId, number, reason}} of the follow-ups the scheduler's rules added when this run ended. */
  private final JsonArray ruleFollowUps = new JsonArray();

  private int followUpsWaiting;

  FinalStatus(
      EventBus bus,
      RunRequest request,
      RunStore runs,
      ChatRecorder history,
      ActionPipeline actions,
      MetaActions meta,
      RunStatuses statuses) {
    this.bus = bus;
    this.request = request;
    this.runs = runs;
    this.history = history;
    this.actions = actions;
    this.meta = meta;
    this.statuses = statuses;
  }

  /** Follow-ups of the same user request already waiting in the session when the run started. */
  void followUpsWaiting(int count) {
    followUpsWaiting = count;
  }

  /** {@code {runId, code, reason}}: why the run ended. */
  JsonObject reason(FailureCode code, String text) {
    return new JsonObject()
        .put("runId", request.runId())
        .put("code", code.name())
        .put("reason", text);
  }

  /** A failure that ends the run (a verticle's, the store's), with what was applied before it. */
  JsonObject failure(Throwable error) {
    Failure failure = Failure.of(error);
    return reason(failure.code(), failure.getMessage()).put("applied", actions.tally().applied());
  }

  /**
   * A model's failure as every viewer sees it and the run record keeps it: a provider's error arrives
   * in the server's words already, with the provider's status and the correlation id of the
   * operator's log line that has the provider's text.
   */
  JsonObject modelError(ModelEvent.Error error) {
    JsonObject detail =
        reason(FailureCode.MODEL_ERROR, error.errorType() + ": " + error.message())
            .put("errorType", error.errorType())
            .put("retryable", error.retryable());
    if (error.providerStatus() > 0) {
      detail.put("providerStatus", error.providerStatus());
    }
    if (error.correlationId() != null) {
      detail.put("correlationId", error.correlationId());
    }
    return detail;
  }

  /** What the run did, as its final status tells it. */
  JsonObject summary() {
    JsonObject summary =
        new JsonObject()
            .put("runId", request.runId())
            .put("applied", actions.tally().applied())
            .put("dropped", actions.tally().dropped())
            .put("deduped", actions.tally().deduped())
            .put("followups", request.followUp() == null ? 0 : request.followUp().number());
    if (request.followUp() != null) {
      summary.put("followUp", request.followUp().toJson());
    }
    if (followUpsQueued() > 0) {
      summary.put("followupsQueued", meta.followUps().addAll(ruleFollowUps));
    }
    if (meta.followUpsRefused() > 0) {
      summary.put("followupsRefused", meta.followUpsRefused());
    }
    if (meta.todoChanges() > 0) {
      summary.put("todoChanges", meta.todoChanges());
    }
    actions.addOutcomesTo(summary);
    return summary;
  }

  /** The follow-ups this run queued: those it asked for, and those the scheduler's rules added. */
  int followUpsQueued() {
    return meta.followUpsQueued() + ruleFollowUps.size();
  }

  /**
   * Records and publishes the final status. A run ending {@code done} first asks the scheduler which
   * follow-ups its rules add ({@code scheduler.run_ending}); without an answer in time it ends without them.
   */
  Future<Published> publish(RunState state, JsonObject detail) {
    if (state != RunState.DONE) {
      return record(state, detail);
    }
    Promise<Published> published = Promise.promise();
    RunEnding ending = new RunEnding(request.runId(), request.sessionId(), actions.tally().work());
    Address.SCHEDULER_RUN_ENDING
        .ask(bus, ending, new DeliveryOptions().setSendTimeout(RULES_ANSWER_MS))
        .onSuccess(
            reply -> reply.followUps().forEach(followUp -> ruleFollowUps.add(followUp.toJson())))
        .onFailure(
            error ->
                LOG.atWarn()
                    .addKeyValue("runId", request.runId())
                    .addKeyValue("code", Failure.of(error).code())
                    .log("followup.rules_unanswered"))
        .onComplete(asked -> record(state, detail).onComplete(published));
    return published.future();
  }

  private Future<Published> record(RunState state, JsonObject detail) {
    boolean moreToCome = followUpsQueued() + followUpsWaiting > 0;
    RunState published = state == RunState.DONE && moreToCome ? RunState.SCHEDULED : state;
    JsonObject full = summary().mergeIn(detail == null ? new JsonObject() : detail);
    if (!ruleFollowUps.isEmpty()) {
      // The detail was taken before the scheduler's rules answered.
      full.put("followupsQueued", summary().getJsonArray("followupsQueued"));
    }
    if (state == RunState.ERROR) {
      if (!full.containsKey("retryable")) {
        full.put(
            "retryable",
            FailureCode.named(full.getString("code")).map(FailureCode::retryable).orElse(false));
      }
      if (actions.board() != null) {
        // What the board holds after the committed part of the run, so a client can check it is in
        // step.
        full.put("boardRevision", actions.board().revision());
      }
    }
    // What a client is told is committed first: the run's chat, then its final state in the run
    // records. A chat the store lost does not keep the final state out of the record.
    return history
        .settled()
        .transform(written -> runs.finish(request.runId(), published.wireName(), full))
        .transform(
            recorded -> {
              if (recorded.failed()) {
                LOG.atWarn()
                    .addKeyValue("runId", request.runId())
                    .addKeyValue("state", published.wireName())
                    .addKeyValue("error", recorded.cause().getMessage())
                    .log("run.record_failed");
              }
              statuses.publish(published, full);
              return Future.succeededFuture(new Published(published, full, recorded.succeeded()));
            });
  }
}
