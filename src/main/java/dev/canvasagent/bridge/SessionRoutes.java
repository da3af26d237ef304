package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BusMessage;
import dev.canvasagent.bus.Endpoint;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import dev.canvasagent.bus.SessionCreate;
import dev.canvasagent.bus.SessionListQuery;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.bus.SessionUpdate;
import dev.canvasagent.schema.JsonSchemaFile;
import dev.canvasagent.store.TodoStore;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code /api/sessions}: create, list, resume, change and delete agent sessions, and read a session's
 * todo list (the scheduler owns them; each route is one request on the bus). Bodies are checked
 * against {@code api/session-*.json}; ids and query parameters here, the {@code Idempotency-Key}
 * header by {@link IdempotencyKeyHeader}.
 */
final class SessionRoutes {
  /** A session id as the run request schema takes it. */
  static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  static final int DEFAULT_LIST_LIMIT = 20;
  static final int MAX_LIST_LIMIT = 100;

  private final Vertx vertx;
  private final EdgeAccess access;
  private final JsonSchemaFile createSchema = JsonSchemaFile.load("api/session-create.json");
  private final JsonSchemaFile updateSchema = JsonSchemaFile.load("api/session-update.json");

  SessionRoutes(Vertx vertx, EdgeAccess access) {
    this.vertx = vertx;
    this.access = access;
  }

  /** {@code body}: the server's JSON body, of at most its body limit. */
  void mount(Router router, JsonBody body) {
    router.get("/api/sessions/:sessionId/todos").handler(this::todos);
    body.on(router.post("/api/sessions")).handler(this::create);
    router.get("/api/sessions").handler(this::list);
    router.get("/api/sessions/:sessionId").handler(this::resume);
    body.on(router.patch("/api/sessions/:sessionId")).handler(this::update);
    router.delete("/api/sessions/:sessionId").handler(this::delete);
  }

  private void create(RoutingContext ctx) {
    JsonObject request = JsonBody.parse(ctx, createSchema);
    if (request != null && EdgeAccess.room(ctx, Role.EDITOR, request.getString("roomId"))) {
      IdempotencyKeyHeader.withKey(
          ctx,
          request,
          key ->
              forward(
                  ctx,
                  Address.SCHEDULER_SESSION_CREATE,
                  new SessionCreate(
                      request.getString("roomId"),
                      request.getString("title"),
                      request.getString("model"),
                      key),
                  201));
    }
  }

  private void list(RoutingContext ctx) {
    List<String> rooms = ctx.queryParam("roomId");
    if (rooms.size() != 1 || !RoomId.isValid(rooms.get(0))) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_REQUEST, "give one roomId matching " + RoomId.PATTERN.pattern());
      return;
    }
    Long limit = RequestParameters.queryLong(ctx, "limit", DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT);
    if (limit != null && EdgeAccess.room(ctx, Role.VIEWER, rooms.get(0))) {
      forward(
          ctx,
          Address.SCHEDULER_SESSION_LIST,
          new SessionListQuery(rooms.get(0), limit.intValue()),
          200);
    }
  }

  private void resume(RoutingContext ctx) {
    SessionRef ask = sessionAsk(ctx);
    if (ask != null) {
      access.session(
          ctx,
          Role.VIEWER,
          ask.sessionId(),
          () -> forward(ctx, Address.SCHEDULER_SESSION_GET, ask, 200));
    }
  }

  private void update(RoutingContext ctx) {
    SessionRef ask = sessionAsk(ctx);
    JsonObject request = ask == null ? null : JsonBody.parse(ctx, updateSchema);
    if (request != null) {
      SessionUpdate update =
          new SessionUpdate(
              ask.sessionId(),
              ask.roomId(),
              request.getString("title"),
              request.getString("model"),
              request.getJsonArray("contextItems"));
      access.session(
          ctx,
          Role.EDITOR,
          ask.sessionId(),
          () -> forward(ctx, Address.SCHEDULER_SESSION_UPDATE, update, 200));
    }
  }

  private void delete(RoutingContext ctx) {
    SessionRef ask = sessionAsk(ctx);
    if (ask != null) {
      access.session(
          ctx,
          Role.EDITOR,
          ask.sessionId(),
          () -> forward(ctx, Address.SCHEDULER_SESSION_DELETE, ask, 200));
    }
  }

  /**
   * The agent's todo list of a session, in list order, or only the items of one {@code ?status=};
   * 404 for a session the server does not know.
   */
  private void todos(RoutingContext ctx) {
    String sessionId = sessionId(ctx);
    if (sessionId == null) {
      return;
    }
    List<String> statuses = ctx.queryParam("status");
    if (statuses.size() > 1
        || (statuses.size() == 1 && TodoStore.Status.fromWire(statuses.get(0)).isEmpty())) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_REQUEST, "status must be one of open, done, skipped");
      return;
    }
    access.session(
        ctx,
        Role.VIEWER,
        sessionId,
        () ->
            JsonResponse.answer(
                ctx,
                200,
                Address.SCHEDULER_TODOS.ask(vertx.eventBus(), SessionRef.of(sessionId)),
                todos ->
                    (statuses.size() == 1 ? todos.withStatus(statuses.get(0)) : todos).toJson()));
  }

  /** The path's session id, or null after answering 400. */
  private static String sessionId(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    if (sessionId == null || !SESSION_ID.matcher(sessionId).matches()) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_REQUEST, "sessionId must match " + SESSION_ID.pattern());
      return null;
    }
    return sessionId;
  }

  /** The session of the path in the optional {@code ?roomId=}, or null after answering 400. */
  private static SessionRef sessionAsk(RoutingContext ctx) {
    String sessionId = sessionId(ctx);
    if (sessionId == null) {
      return null;
    }
    List<String> rooms = ctx.queryParam("roomId");
    if (rooms.isEmpty()) {
      return SessionRef.of(sessionId);
    }
    if (rooms.size() != 1 || !RoomId.isValid(rooms.get(0))) {
      HttpErrors.send(
          ctx,
          FailureCode.INVALID_REQUEST,
          "roomId must be one value matching " + RoomId.PATTERN.pattern());
      return null;
    }
    return new SessionRef(sessionId, rooms.get(0));
  }

  /** Asks {@code endpoint} and answers {@code status} with the reply, {@code ok: true} first. */
  private <Q extends BusMessage, R extends BusMessage> void forward(
      RoutingContext ctx, Endpoint<Q, R> endpoint, Q ask, int status) {
    JsonResponse.answer(ctx, status, endpoint.ask(vertx.eventBus(), ask), BusMessage::toJson);
  }
}
