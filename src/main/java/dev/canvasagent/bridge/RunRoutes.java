package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import dev.canvasagent.bus.RunRevertRequest;
import dev.canvasagent.bus.RunSubmit;
import dev.canvasagent.bus.SessionCanceled;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/canvas-agent/run}, {@code /cancel} and {@code /runs/{runId}/revert}: a person asks the
 * agent for a run on a room's board (the scheduler queues it, 202), cancels a session's work, or undoes
 * a run that has ended. A run counts against the client's and the room's run limits ({@link
 * EdgeLimits#takeRun}).
 */
final class RunRoutes {
  /** A cancel body holds one session id. */
  static final int CANCEL_BODY_LIMIT_BYTES = 4 * 1024;

  private final Vertx vertx;
  private final EdgeAccess access;
  private final EdgeLimits limits;
  private final JsonSchemaFile runRequestSchema = JsonSchemaFile.load("api/run-request.json");
  private final JsonSchemaFile cancelSchema = JsonSchemaFile.load("api/cancel.json");
  private final JsonSchemaFile revertSchema = JsonSchemaFile.load("api/run-revert.json");

  RunRoutes(Vertx vertx, EdgeAccess access, EdgeLimits limits) {
    this.vertx = vertx;
    this.access = access;
    this.limits = limits;
  }

  /** {@code body}: the server's JSON body, of at most its body limit. */
  void mount(Router router, JsonBody body) {
    body.on(router.post("/api/canvas-agent/run")).handler(this::run);
    JsonBody.upTo(CANCEL_BODY_LIMIT_BYTES, "a cancel body")
        .on(router.post("/api/canvas-agent/cancel"))
        .handler(this::cancel);
    JsonBody.upTo(CANCEL_BODY_LIMIT_BYTES, "a revert body")
        .on(router.post("/api/canvas-agent/runs/:runId/revert"))
        .handler(this::revert);
  }

  /**
   * Undoes a run of the room the body names, for an editor of that room: its changes reverted as one
   * new revision, broadcast as a {@code canvas:change}; records changed since are left and reported.
   */
  private void revert(RoutingContext ctx) {
    String runId = ctx.pathParam("runId");
    if (!RoomId.isValid(runId)) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_REQUEST, "runId must match " + RoomId.PATTERN.pattern());
      return;
    }
    JsonObject request = JsonBody.parse(ctx, revertSchema);
    if (request == null || !EdgeAccess.room(ctx, Role.EDITOR, request.getString("roomId"))) {
      return;
    }
    JsonResponse.answer(
        ctx,
        200,
        Address.SCHEDULER_RUN_REVERT.ask(
            vertx.eventBus(), new RunRevertRequest(request.getString("roomId"), runId)),
        reverted -> new JsonObject().put("runId", runId).mergeIn(reverted.toJson()));
  }

  private void run(RoutingContext ctx) {
    JsonObject request = JsonBody.parse(ctx, runRequestSchema);
    JsonObject ask =
        request == null || !EdgeAccess.room(ctx, Role.EDITOR, request.getString("roomId"))
            ? null
            : IdempotencyKeyHeader.addTo(ctx, request);
    if (ask == null) {
      return;
    }
    // The checked body has the submit's keys, and the request's key beside them.
    RunSubmit submit = RunSubmit.fromJson(ask);
    // A session named in the body is looked up like one in a path: one the caller cannot reach is
    // answered as one that does not exist, not as another room's (SESSION_ROOM_MISMATCH).
    access.sessionIfNamed(
        ctx,
        Role.EDITOR,
        submit.sessionId(),
        () ->
            limits
                .takeRun(ctx, submit.roomId())
                .onSuccess(
                    taken -> {
                      if (taken) {
                        submit(ctx, submit);
                      }
                    }));
  }

  private void submit(RoutingContext ctx, RunSubmit submit) {
    Address.SCHEDULER_SUBMIT
        .ask(vertx.eventBus(), submit)
        .onSuccess(
            accepted ->
                JsonResponse.send(
                    ctx, 202, new JsonObject().put("ok", true).mergeIn(accepted.toJson())))
        .onFailure(
            error ->
                limits
                    .giveBackRun(ctx, submit.roomId())
                    .onComplete(given -> HttpErrors.send(ctx, error)));
  }

  /** Cancels a session's work; answered once its running run has ended, with what was canceled. */
  private void cancel(RoutingContext ctx) {
    JsonObject request = JsonBody.parse(ctx, cancelSchema);
    if (request == null) {
      return;
    }
    SessionRef session = SessionRef.of(request.getString("sessionId"));
    access.session(
        ctx,
        Role.EDITOR,
        session.sessionId(),
        () ->
            JsonResponse.answer(
                ctx,
                200,
                Address.SCHEDULER_CANCEL.ask(vertx.eventBus(), session),
                SessionCanceled::toJson));
  }
}
