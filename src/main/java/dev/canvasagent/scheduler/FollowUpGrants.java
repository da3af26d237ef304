package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.FollowUpRequest;
import dev.canvasagent.bus.GrantedFollowUp;
import dev.canvasagent.bus.GrantedFollowUps;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grants a running run's follow-ups, at most {@code followups.maxFollowups} per user request: those
 * it asks for ({@code add_detail}, {@code review}: {@code scheduler.follow_up}) and the one the
 * scheduler's rules may add when it is about to end {@code done} ({@code scheduler.run_ending}). A
 * granted follow-up is recorded {@code queued} before the grant is answered — the asking run's final
 * status names it, so it must outlive this node — and waits with its run, queued only if that run
 * ends {@code done}.
 */
final class FollowUpGrants {
  private static final Logger LOG = LoggerFactory.getLogger(FollowUpGrants.class);

  private final FollowUpRules rules;
  private final int maxFollowups;
  private final RunJournal journal;

  FollowUpGrants(FollowUpRules rules, int maxFollowups, RunJournal journal) {
    this.rules = rules;
    this.maxFollowups = maxFollowups;
    this.journal = journal;
  }

  /**
   * The follow-up {@code active} asked for, or QUEUE_FULL past its request's cap, or the store's
   * failure to record it (then it was not granted).
   */
  Future<GrantedFollowUp> asked(SessionQueue queue, ActiveRun active, FollowUpRequest request) {
    RunRequest next =
        queue
            .reserveFollowUp(
                active, request.reason(), request.message(), request.viewport(), maxFollowups)
            .orElse(null);
    if (next != null) {
      return stored(queue, active, next);
    }
    return Failure.future(
        FailureCode.QUEUE_FULL,
        "the user request "
            + active.run.requestRunId()
            + " already had "
            + queue.followUpsGranted(active.run.requestRunId())
            + " follow-ups (limit "
            + maxFollowups
            + ", followups.maxFollowups)");
  }

  /**
   * The follow-up the rules give {@code active}, about to end {@code done}, if any and within the
   * cap; none once it is being canceled or has ended meanwhile.
   */
  Future<GrantedFollowUps> ending(SessionQueue queue, ActiveRun active, int actionsApplied) {
    return rules
        .judge(active, queue, actionsApplied)
        .transform(
            judged -> {
              if (judged.succeeded()
                  && judged.result().isPresent()
                  && !active.canceling()
                  && !active.ended()) {
                FollowUpRules.RuleFollowUp rule = judged.result().get();
                RunRequest next =
                    queue
                        .reserveFollowUp(active, rule.reason(), rule.message(), null, maxFollowups)
                        .orElse(null);
                if (next != null) {
                  // A rule's follow-up the store cannot record is not given: the run ends done.
                  return stored(queue, active, next)
                      .map(granted -> new GrantedFollowUps(List.of(granted)))
                      .otherwise(new GrantedFollowUps(List.of()));
                }
                LOG.atInfo()
                    .addKeyValue("runId", active.run.runId())
                    .addKeyValue("reason", rule.reason())
                    .addKeyValue("limit", maxFollowups)
                    .log("followup.refused");
              }
              return Future.succeededFuture(new GrantedFollowUps(List.of()));
            });
  }

  /**
   * Records a reserved follow-up {@code queued} (this node holds it from now on, heartbeat and all),
   * then adds it to the follow-ups {@code active} asked for. Not recorded, it is not granted: its place
   * under the cap is given back and the store's failure answered. Should the asking run have ended
   * meanwhile, it never named it: the record is ended {@code canceled} and nothing waits for it.
   */
  private Future<GrantedFollowUp> stored(SessionQueue queue, ActiveRun active, RunRequest next) {
    return journal
        .accepted(next, null)
        .onFailure(error -> queue.releaseFollowUp(next))
        .compose(
            recorded -> {
              if (active.ended()) {
                journal.ended(
                    next,
                    RunState.CANCELED,
                    new JsonObject()
                        .put("runId", next.runId())
                        .put("code", FailureCode.CANCELED.name())
                        .put("reason", "the run that asked for it had ended")
                        .put("followUp", next.followUp().toJson()));
                return Failure.future(
                    FailureCode.INVALID_REQUEST, "run " + active.run.runId() + " has ended");
              }
              active.followUps.add(next);
              LOG.atInfo()
                  .addKeyValue("sessionId", next.sessionId())
                  .addKeyValue("runId", next.runId())
                  .addKeyValue("askedBy", active.run.runId())
                  .addKeyValue("reason", next.followUp().reason())
                  .addKeyValue("number", next.followUp().number())
                  .log("followup.accepted");
              return Future.succeededFuture(
                  new GrantedFollowUp(
                      next.runId(), next.followUp().number(), next.followUp().reason()));
            });
  }
}
