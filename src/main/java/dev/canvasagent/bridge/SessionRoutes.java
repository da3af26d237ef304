package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code /api/sessions}: create, list, resume, change and delete agent sessions (the scheduler owns
 * them; each route is one request on the bus). Bodies are checked against {@code api/session-*.json};
 * ids, query parameters and the {@code Idempotency-Key} header here.
 */
final class SessionRoutes {
  static final int DEFAULT_LIST_LIMIT = 20;
  static final int MAX_LIST_LIMIT = 100;
  /** The header a client sets so a retried write is done once: the same key in the same room answers the first result. */
  static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
  static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

  private final Vertx vertx;
  private final EdgeAccess access;
  private final JsonSchemaFile createSchema = JsonSchemaFile.load("api/session-create.json");
  private final JsonSchemaFile updateSchema = JsonSchemaFile.load("api/session-update.json");

  SessionRoutes(Vertx vertx, EdgeAccess access) {
    this.vertx = vertx;
    this.access = access;
  }

  void mount(Router router, BodyHandler body, io.vertx.core.Handler<RoutingContext> requireJson) {
    router.post("/api/sessions").handler(body).handler(requireJson).handler(this::create);
    router.get("/api/sessions").handler(this::list);
    router.get("/api/sessions/:sessionId").handler(this::resume);
    router.patch("/api/sessions/:sessionId").handler(body).handler(requireJson).handler(this::update);
    router.delete("/api/sessions/:sessionId").handler(this::delete);
  }

  /**
   * The request's {@code Idempotency-Key}: absent → the JSON unchanged; valid → put under
   * {@code idempotencyKey}; otherwise null after answering 400.
   */
  static JsonObject withIdempotencyKey(RoutingContext ctx, JsonObject ask) {
    List<String> keys = ctx.request().headers().getAll(IDEMPOTENCY_KEY_HEADER);
    if (keys.isEmpty()) {
      return ask;
    }
    if (keys.size() > 1 || !IDEMPOTENCY_KEY.matcher(keys.get(0)).matches()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, IDEMPOTENCY_KEY_HEADER + " must be one value matching " + IDEMPOTENCY_KEY.pattern());
      return null;
    }
    return ask.put("idempotencyKey", keys.get(0));
  }

  private void create(RoutingContext ctx) {
    JsonObject request = BridgeVerticle.jsonBody(ctx, createSchema);
    JsonObject ask = request == null || !EdgeAccess.room(ctx, Role.EDITOR, request.getString("roomId"))
        ? null : withIdempotencyKey(ctx, request);
    if (ask != null) {
      forward(ctx, Address.SCHEDULER_SESSION_CREATE, ask, 201);
    }
  }

  private void list(RoutingContext ctx) {
    List<String> rooms = ctx.queryParam("roomId");
    if (rooms.size() != 1 || !RoomId.isValid(rooms.get(0))) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "give one roomId matching " + RoomId.PATTERN.pattern());
      return;
    }
    Long limit = BridgeVerticle.queryLong(ctx, "limit", DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT);
    if (limit != null && EdgeAccess.room(ctx, Role.VIEWER, rooms.get(0))) {
      forward(ctx, Address.SCHEDULER_SESSION_LIST, new JsonObject().put("roomId", rooms.get(0)).put("limit", limit.intValue()), 200);
    }
  }

  private void resume(RoutingContext ctx) {
    JsonObject ask = sessionAsk(ctx);
    if (ask != null) {
      access.session(ctx, Role.VIEWER, ask.getString("sessionId"), () -> forward(ctx, Address.SCHEDULER_SESSION_GET, ask, 200));
    }
  }

  private void update(RoutingContext ctx) {
    JsonObject ask = sessionAsk(ctx);
    JsonObject request = ask == null ? null : BridgeVerticle.jsonBody(ctx, updateSchema);
    if (request != null) {
      access.session(ctx, Role.EDITOR, ask.getString("sessionId"),
          () -> forward(ctx, Address.SCHEDULER_SESSION_UPDATE, request.mergeIn(ask), 200));
    }
  }

  private void delete(RoutingContext ctx) {
    JsonObject ask = sessionAsk(ctx);
    if (ask != null) {
      access.session(ctx, Role.EDITOR, ask.getString("sessionId"), () -> forward(ctx, Address.SCHEDULER_SESSION_DELETE, ask, 200));
    }
  }

  /** {@code {sessionId, roomId?}} from the path and the optional {@code ?roomId=}, or null after answering 400. */
  private static JsonObject sessionAsk(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    if (sessionId == null || !BridgeVerticle.SESSION_ID.matcher(sessionId).matches()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "sessionId must match " + BridgeVerticle.SESSION_ID.pattern());
      return null;
    }
    JsonObject ask = new JsonObject().put("sessionId", sessionId);
    List<String> rooms = ctx.queryParam("roomId");
    if (rooms.isEmpty()) {
      return ask;
    }
    if (rooms.size() != 1 || !RoomId.isValid(rooms.get(0))) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "roomId must be one value matching " + RoomId.PATTERN.pattern());
      return null;
    }
    return ask.put("roomId", rooms.get(0));
  }

  private void forward(RoutingContext ctx, String address, JsonObject ask, int status) {
    vertx.eventBus().<JsonObject>request(address, ask)
        .onSuccess(reply -> BridgeVerticle.sendJson(ctx, status, new JsonObject().put("ok", true).mergeIn(reply.body())))
        .onFailure(error -> HttpErrors.send(ctx, error));
  }
}
