package dev.canvasagent.runner;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FollowUpRequest;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.TodoRequest;
import dev.canvasagent.bus.Viewport;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's meta actions on their way to the scheduler, one at a time as the model finishes them:
 * {@code todo} changes the session's list, {@code add_detail} and {@code review} ask for a follow-up
 * run. Counts what became of them for the run's final status. A refusal the action deserves (an id
 * the session does not have, the follow-up cap) leaves the run going; the scheduler or its store
 * failing ends the run with an error, like any verticle failing.
 */
final class MetaActions {
  private static final Logger LOG = LoggerFactory.getLogger(MetaActions.class);
  static final String DEFAULT_DETAIL_MESSAGE = "Add more detail to what you just made.";
  static final String DEFAULT_REVIEW_MESSAGE =
      "Look again at this region of the board and fix what does not read well.";

  /** What became of one meta action. */
  enum Outcome {
    APPLIED,
    DROPPED,
    REFUSED
  }

  private final EventBus bus;
  private final RunRequest request;

  /** {@code {runId, number, reason}} of each follow-up the scheduler accepted. */
  private final JsonArray followUps = new JsonArray();

  private int followUpsRefused;
  private int todoChanges;

  MetaActions(EventBus bus, RunRequest request) {
    this.bus = bus;
    this.request = request;
  }

  Future<Outcome> send(AgentAction action) {
    return switch (action.name()) {
      case "todo" -> todo(action);
      case "add_detail" ->
          followUp(
              action,
              "add_detail",
              text(action.params().getString("intent"), DEFAULT_DETAIL_MESSAGE),
              null);
      case "review" ->
          followUp(
              action,
              "review",
              text(action.params().getString("note"), DEFAULT_REVIEW_MESSAGE),
              Viewport.fromJson(action.params().getJsonObject("bounds")));
      default -> Future.succeededFuture(Outcome.APPLIED);
    };
  }

  private Future<Outcome> todo(AgentAction action) {
    TodoRequest ask =
        new TodoRequest(request.runId(), request.sessionId(), request.roomId(), action.params());
    return Address.SCHEDULER_TODO
        .ask(bus, ask)
        .transform(
            reply -> {
              if (reply.succeeded()) {
                todoChanges++;
                return Future.succeededFuture(Outcome.APPLIED);
              }
              Failure failure = Failure.of(reply.cause());
              return switch (failure.code()) {
                case NOT_FOUND, ACTION_INVALID -> {
                  LOG.atInfo()
                      .addKeyValue("runId", request.runId())
                      .addKeyValue("verb", action.name())
                      .addKeyValue("actionId", action.id())
                      .addKeyValue("reason", failure.getMessage())
                      .log("action.dropped");
                  yield Future.succeededFuture(Outcome.DROPPED);
                }
                default -> Future.failedFuture(failure);
              };
            });
  }

  private Future<Outcome> followUp(
      AgentAction action, String reason, String message, Viewport viewport) {
    FollowUpRequest ask =
        new FollowUpRequest(
            request.runId(), request.sessionId(), request.roomId(), reason, message, viewport);
    return Address.SCHEDULER_FOLLOW_UP
        .ask(bus, ask)
        .transform(
            reply -> {
              if (reply.succeeded()) {
                followUps.add(reply.result().toJson());
                return Future.succeededFuture(Outcome.APPLIED);
              }
              Failure failure = Failure.of(reply.cause());
              return switch (failure.code()) {
                case QUEUE_FULL, SHUTTING_DOWN -> {
                  followUpsRefused++;
                  LOG.atInfo()
                      .addKeyValue("runId", request.runId())
                      .addKeyValue("verb", action.name())
                      .addKeyValue("actionId", action.id())
                      .addKeyValue("reason", failure.getMessage())
                      .log("followup.refused");
                  yield Future.succeededFuture(Outcome.REFUSED);
                }
                default -> Future.failedFuture(failure);
              };
            });
  }

  private static String text(String given, String fallback) {
    return given == null || given.isBlank() ? fallback : given;
  }

  /** The follow-ups this run queued, {@code {runId, number, reason}} each. */
  JsonArray followUps() {
    return followUps.copy();
  }

  int followUpsQueued() {
    return followUps.size();
  }

  int followUpsRefused() {
    return followUpsRefused;
  }

  int todoChanges() {
    return todoChanges;
  }
}
