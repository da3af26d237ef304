package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.FollowUpRequest;
import dev.canvasagent.bus.GrantedFollowUp;
import dev.canvasagent.bus.GrantedFollowUps;
import dev.canvasagent.bus.Viewport;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grants a running run's follow-ups, at most {@code followups.maxFollowups} per user request: those
 * it asks for ({@code add_detail}, {@code review}: {@code scheduler.follow_up}) and the one the
 * scheduler's rules may add when it is about to end {@code done} ({@code scheduler.run_ending}). A
 * granted follow-up waits with its run, queued only if that run ends {@code done}.
 */
final class FollowUpGrants {
  private static final Logger LOG = LoggerFactory.getLogger(FollowUpGrants.class);

  private final FollowUpRules rules;
  private final int maxFollowups;

  FollowUpGrants(FollowUpRules rules, int maxFollowups) {
    this.rules = rules;
    this.maxFollowups = maxFollowups;
  }

  /** The follow-up {@code active} asked for, or QUEUE_FULL past its request's cap. */
  Future<GrantedFollowUp> asked(SessionQueue queue, ActiveRun active, FollowUpRequest request) {
    return grant(queue, active, request.reason(), request.message(), request.viewport())
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
                        + maxFollowups
                        + ", followups.maxFollowups)"));
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
              List<GrantedFollowUp> granted = new ArrayList<>();
              if (judged.succeeded()
                  && judged.result().isPresent()
                  && !active.canceling()
                  && !active.ended()) {
                FollowUpRules.RuleFollowUp rule = judged.result().get();
                grant(queue, active, rule.reason(), rule.message(), null)
                    .ifPresentOrElse(
                        granted::add,
                        () ->
                            LOG.atInfo()
                                .addKeyValue("runId", active.run.runId())
                                .addKeyValue("reason", rule.reason())
                                .addKeyValue("limit", maxFollowups)
                                .log("followup.refused"));
              }
              return Future.succeededFuture(new GrantedFollowUps(granted));
            });
  }

  /** A follow-up within the request's cap; empty past the cap. */
  private Optional<GrantedFollowUp> grant(
      SessionQueue queue, ActiveRun active, String reason, String text, Viewport viewport) {
    return queue
        .grantFollowUp(active, reason, text, viewport, maxFollowups)
        .map(
            next -> {
              LOG.atInfo()
                  .addKeyValue("sessionId", next.sessionId())
                  .addKeyValue("runId", next.runId())
                  .addKeyValue("askedBy", active.run.runId())
                  .addKeyValue("reason", reason)
                  .addKeyValue("number", next.followUp().number())
                  .log("followup.accepted");
              return new GrantedFollowUp(next.runId(), next.followUp().number(), reason);
            });
  }
}
