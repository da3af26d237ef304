package dev.canvasagent.bridge;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.CanvasVerticle;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.document.DocumentToolCatalog;
import dev.canvasagent.schema.JsonSchemaFile;
import dev.canvasagent.schema.NulCharacters;
import dev.canvasagent.store.TodoStore;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.Future;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP edge and the only verticle that speaks HTTP: REST requests become event-bus requests, and
 * a room's topics become Server-Sent Events, WebSocket frames and SockJS bridge messages
 * ({@code /eventbus}, {@link SockJSBridge}). Every refusal is a 4xx with {@code {ok:false, error}}.
 */
public final class BridgeVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeVerticle.class);
  static final int MAX_RECORDS_PER_CHANGE = 1_000;
  static final long HEALTH_PROBE_TIMEOUT_MS = 2_000;
  static final int MAX_REVISIONS_LIMIT = 500;
  /** A transcript body: 4000 characters of text, each escaped at worst as six bytes, and the rest. */
  static final int TRANSCRIPT_BODY_LIMIT_BYTES = 32 * 1024;
  /** How far ahead of this server's clock an utterance's ts may be (clients' clocks drift). */
  static final long TRANSCRIPT_MAX_FUTURE_MS = 5 * 60 * 1000;
  /** A cancel body holds one session id. */
  static final int CANCEL_BODY_LIMIT_BYTES = 4 * 1024;
  /** A session id as the run request schema takes it. */
  static final java.util.regex.Pattern SESSION_ID = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final AppConfig config;
  private final ActionCatalog catalog;
  private final DocumentToolCatalog documentTools = new DocumentToolCatalog();
  private final List<String> verticleNames;
  private final Optional<AccessTokens> tokens;
  private EdgeAccess access;
  private EdgeLimits limits;
  private ConnectionGate gate;
  private final JsonSchemaFile runRequestSchema = JsonSchemaFile.load("api/run-request.json");
  private final JsonSchemaFile changeRequestSchema = JsonSchemaFile.load("api/change-request.json");
  private final JsonSchemaFile transcriptSchema = JsonSchemaFile.load("api/transcript.json");
  private final JsonSchemaFile cancelSchema = JsonSchemaFile.load("api/cancel.json");
  private RoomHub hub;
  private InboundFrames inbound;
  private HttpServer server;

  /**
   * {@code verticleNames}: the verticles whose health {@code GET /health} reports, this one included;
   * {@code tokens}: the token verifier, empty when auth is off.
   */
  public BridgeVerticle(AppConfig config, ActionCatalog catalog, List<String> verticleNames, Optional<AccessTokens> tokens) {
    this.config = config;
    this.catalog = catalog;
    this.verticleNames = List.copyOf(verticleNames);
    this.tokens = tokens;
  }

  @Override
  public String name() {
    return "bridge";
  }

  /** The port the server listens on (the configured one, or the one picked for port 0). */
  public int actualPort() {
    return server.actualPort();
  }

  @Override
  protected Future<?> startVerticle() {
    hub = new RoomHub(vertx, config.bridge());
    limits = new EdgeLimits(vertx, config.limits(), tokens.isPresent());
    limits.start();
    inbound = new InboundFrames(vertx, limits);
    access = new EdgeAccess(vertx, tokens);
    gate = new ConnectionGate(vertx, config.http(), config.limits());
    Router router = Router.router(vertx);
    BodyHandler body = BodyHandler.create(false).setBodyLimit(config.http().bodyLimitBytes());

    // First of all: the head is in, so its deadline is met and the body's (if any) starts.
    router.route().handler(gate::headArrived);
    // Before any route: a browser page from another origin is refused, a listed one gets CORS.
    router.route().handler(new OriginGuard(config.http().corsOrigins(), tokens.isEmpty()));

    // A load balancer's probe carries no token: /health tells it only whether the verticles are up;
    // with auth on, the counters behind that answer are an admin's to see.
    router.get("/health").handler(this::health);
    // The API is under /api and the bus under /eventbus; the browser client's page and assets, public
    // like any web page, are everything else (PageRoutes). /api is authenticated here, before any body
    // is read; the SockJS bridge checks the token of each message itself (SockJSBridge).
    router.route("/api/*").handler(limits::screenUnauthenticated);
    router.route("/api/*").handler(access::authenticate);
    router.route("/api/*").handler(limits::countRequest);
    router.get("/api/catalog").handler(ctx -> sendJson(ctx, 200, new JsonObject().put("ok", true).put("verbs", catalog.describe())));
    router.post("/api/canvas-agent/run").handler(body).handler(this::requireJson).handler(this::run);
    router.post("/api/canvas-agent/cancel")
        .handler(BodyHandler.create(false).setBodyLimit(CANCEL_BODY_LIMIT_BYTES))
        .handler(this::requireJson)
        .handler(this::cancel)
        .failureHandler(ctx -> {
          if (ctx.statusCode() == 413) {
            HttpErrors.send(ctx, FailureCode.BODY_TOO_LARGE, "a cancel body may not exceed " + CANCEL_BODY_LIMIT_BYTES + " bytes");
          } else {
            ctx.next();
          }
        });
    router.get("/api/rooms/:roomId/events").handler(this::events);
    router.get("/api/rooms/:roomId/ws").handler(this::webSocket);
    router.post("/api/rooms/:roomId/changes").handler(body).handler(this::requireJson).handler(this::change);
    router.get("/api/rooms/:roomId/board").handler(this::board);
    router.post("/api/rooms/:roomId/transcript")
        .handler(BodyHandler.create(false).setBodyLimit(TRANSCRIPT_BODY_LIMIT_BYTES))
        .handler(this::requireJson)
        .handler(this::transcript)
        .failureHandler(ctx -> {
          if (ctx.statusCode() == 413) {
            HttpErrors.send(ctx, FailureCode.BODY_TOO_LARGE, "a transcript body may not exceed " + TRANSCRIPT_BODY_LIMIT_BYTES + " bytes");
          } else {
            ctx.next();
          }
        });
    router.get("/api/rooms/:roomId/revisions").handler(this::revisions);
    router.get("/api/sessions/:sessionId/todos").handler(this::todos);
    new SessionRoutes(vertx, access).mount(router, body, this::requireJson);
    new DocumentRoutes(vertx, access, limits, documentTools, config.documents().maxContentBytes(), config.documents().agentTimeoutMs()).mount(router, this::requireJson);
    // The SockJS event-bus bridge. Its xhr transports post what a browser sends to
    // /eventbus/<server>/<session>/xhr_send, and SockJS reads that from the routing context's body.
    // So that route alone gets a body handler, bounded like a WebSocket message; no other SockJS
    // route reads a body.
    router.postWithRegex("/eventbus/[^/.]+/[^/.]+/xhr_send")
        .handler(BodyHandler.create(false).setBodyLimit(config.bridge().maxMessageBytes()))
        .failureHandler(ctx -> {
          if (ctx.statusCode() == 413) {
            HttpErrors.send(ctx, FailureCode.BODY_TOO_LARGE, "a SockJS message may not exceed " + config.bridge().maxMessageBytes()
                + " bytes (CANVAS_AGENT_MAX_MESSAGE_BYTES)");
          } else {
            ctx.next();
          }
        });
    // SockJS closes the connection after every poll and every full stream (vert-x3/vertx-web#2862)
    // without saying so. A client or proxy that reuses the connection then sends its next request into
    // a closing socket. Saying it spares them the reset.
    router.postWithRegex("/eventbus/[^/.]+/[^/.]+/(?:xhr|xhr_streaming)")
        .handler(ctx -> {
          ctx.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
          ctx.next();
        });
    router.route("/eventbus/*").subRouter(new SockJSBridge(vertx, hub, inbound, limits, config.bridge(), config.http().sseHeartbeatMs(),
        tokens).router());

    // The browser client, after every other route: it never answers for /api, /eventbus or /health.
    new PageRoutes(PageRoutes.WEBROOT).mount(router);
    router.errorHandler(404, ctx ->
        HttpErrors.send(ctx, FailureCode.NOT_FOUND, "no route for " + ctx.request().method() + " " + ctx.request().path()));
    router.errorHandler(405, ctx ->
        HttpErrors.send(ctx, FailureCode.METHOD_NOT_ALLOWED, ctx.request().method() + " is not allowed on " + ctx.request().path()));
    router.errorHandler(413, ctx ->
        HttpErrors.send(ctx, FailureCode.BODY_TOO_LARGE, "the body exceeds " + config.http().bodyLimitBytes() + " bytes"));
    router.errorHandler(400, ctx -> HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "the request could not be read"));
    router.errorHandler(500, ctx -> {
      LOG.atError().addKeyValue("path", ctx.request().path()).setCause(ctx.failure()).log("http.unhandled");
      HttpErrors.send(ctx, FailureCode.INTERNAL, "internal error");
    });

    HttpServerOptions options = new HttpServerOptions()
        .setHost(config.http().host())
        .setPort(config.http().port())
        .setMaxInitialLineLength(8 * 1024)
        .setMaxHeaderSize(16 * 1024)
        .setMaxWebSocketMessageSize(config.bridge().maxMessageBytes())
        // Browsers send each message as one frame: a frame may be as large as a message, or every
        // message over the frame limit (a screenshot, say) would drop its connection.
        .setMaxWebSocketFrameSize(config.bridge().maxMessageBytes())
        // No byte either way for this long closes any connection. Every stream has traffic more often
        // (heartbeats, pings: CANVAS_AGENT_SSE_HEARTBEAT_MS, at most half of it, ConfigLoader checks).
        .setIdleTimeout(config.http().idleTimeoutMs())
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        // Without cleartext HTTP/2, a connection is HTTP/1 from its first byte, and the gate sees it
        // when it is accepted. With it, Vert.x waits for bytes to choose, and a connection that sends
        // none would never reach the gate's cap or head deadline. Browsers speak HTTP/2 over TLS only.
        .setHttp2ClearTextEnabled(false);
    Future<?> viewports = vertx.eventBus().<JsonObject>consumer(Address.BRIDGE_VIEWPORTS, message -> message.reply(
        hub.room(message.body().getString("roomId")).map(Room::viewports)
            .orElseGet(() -> new JsonObject().put("roomId", message.body().getString("roomId")).put("viewports", new io.vertx.core.json.JsonArray()))))
        .completion();
    return viewports.compose(registered -> vertx.createHttpServer(options).connectionHandler(gate::accept).requestHandler(router).listen())
        .onSuccess(listening -> server = listening);
  }

  private void requireJson(RoutingContext ctx) {
    String contentType = ctx.request().getHeader("content-type");
    if (contentType != null && !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      HttpErrors.send(ctx, FailureCode.UNSUPPORTED_MEDIA_TYPE, "send the body as application/json, not " + contentType);
      return;
    }
    ctx.next();
  }

  /**
   * The body as a JSON object that passes {@code schema}, or null after answering 400. Every body the
   * API takes is read here, so this is where a NUL in any text field is refused, naming the field:
   * PostgreSQL cannot store it, and would answer with a driver error instead.
   */
  static JsonObject jsonBody(RoutingContext ctx, JsonSchemaFile schema) {
    JsonObject request;
    try {
      Object parsed = ctx.body().buffer() == null ? null : ctx.body().buffer().toJsonValue();
      if (!(parsed instanceof JsonObject object)) {
        HttpErrors.send(ctx, FailureCode.INVALID_JSON, "the body must be a JSON object");
        return null;
      }
      request = object;
    } catch (DecodeException e) {
      HttpErrors.send(ctx, FailureCode.INVALID_JSON, "the body is not valid JSON: " + e.getMessage());
      return null;
    }
    var nul = NulCharacters.firstPointer(request);
    if (nul.isPresent()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, nul.get() + ": " + NulCharacters.PROBLEM);
      return null;
    }
    var violations = schema.violations(request);
    if (violations.isPresent()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, violations.get());
      return null;
    }
    return request;
  }

  private void run(RoutingContext ctx) {
    JsonObject request = jsonBody(ctx, runRequestSchema);
    JsonObject ask = request == null || !EdgeAccess.room(ctx, Role.EDITOR, request.getString("roomId"))
        ? null : IdempotencyKeyHeader.addTo(ctx, request);
    if (ask == null) {
      return;
    }
    // A session named in the body is looked up like one in a path: one the caller cannot reach is
    // answered as one that does not exist, not as another room's (SESSION_ROOM_MISMATCH).
    access.sessionIfNamed(ctx, Role.EDITOR, ask.getString("sessionId"), () -> {
      if (!limits.takeRun(ctx, ask.getString("roomId"))) {
        return;
      }
      vertx.eventBus().<JsonObject>request(Address.SCHEDULER_SUBMIT, ask)
          .onSuccess(reply -> sendJson(ctx, 202, new JsonObject().put("ok", true).mergeIn(reply.body())))
          .onFailure(error -> {
            limits.giveBackRun(ctx, ask.getString("roomId"));
            HttpErrors.send(ctx, error);
          });
    });
  }

  /** Cancels a session's work; answered once its running run has ended, with what was canceled. */
  private void cancel(RoutingContext ctx) {
    JsonObject request = jsonBody(ctx, cancelSchema);
    if (request == null) {
      return;
    }
    access.session(ctx, Role.EDITOR, request.getString("sessionId"), () ->
        vertx.eventBus().<JsonObject>request(Address.SCHEDULER_CANCEL, request)
            .onSuccess(reply -> sendJson(ctx, 200, new JsonObject().put("ok", true).mergeIn(reply.body())))
            .onFailure(error -> HttpErrors.send(ctx, error)));
  }

  private void events(RoutingContext ctx) {
    String roomId = roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    EdgeLimits.Hold hold = limits.openStream(ctx, roomId);
    if (hold == null) {
      return;
    }
    String clientId = "sse-" + UUID.randomUUID();
    long[] expiry = {-1};
    SseStream stream = new SseStream(vertx, ctx.response(), roomId, clientId, () -> {
      hold.release();
      vertx.cancelTimer(expiry[0]);
      hub.leave(roomId, clientId);
    });
    stream.open();
    expiry[0] = closeAtExpiry(EdgeAccess.grant(ctx), stream);
    hub.join(roomId, stream, ctx.request().getHeader("last-event-id"))
        .onSuccess(joined -> stream.greet(config.http().sseHeartbeatMs()))
        .onFailure(error -> stream.close("could not join the room"));
  }

  /** {@code /api/rooms/{roomId}/ws}: frames {@code {topic, payload}} both ways; {@code ?lastEventId=} resumes. */
  private void webSocket(RoutingContext ctx) {
    String roomId = roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    Grant grant = EdgeAccess.grant(ctx);
    EdgeLimits.Hold hold = limits.openStream(ctx, roomId);
    if (hold == null) {
      return;
    }
    String limitKey = limits.client(ctx);
    String lastEventId = ctx.request().getParam("lastEventId");
    ctx.request().toWebSocket().onFailure(notUpgraded -> hold.release()).onSuccess(socket -> {
      String clientId = "ws-" + UUID.randomUUID();
      WebSocketClient client = new WebSocketClient(socket, roomId, clientId, grant.allowsRoom(roomId, Role.EDITOR), limitKey);
      long expiry = closeAtExpiry(grant, client);
      // Browsers answer pings on their own: a quiet room's socket then has traffic every heartbeat
      // and outlives the idle timeout, as an event stream does with its heartbeat comments.
      long pings = vertx.setPeriodic(config.http().sseHeartbeatMs(), tick -> client.ping());
      MessageRate rate = new MessageRate(config.bridge().messagesPerSecond());
      socket.closeHandler(closed -> {
        hold.release();
        vertx.cancelTimer(expiry);
        vertx.cancelTimer(pings);
        client.markClosed();
        hub.leave(roomId, clientId);
      });
      socket.exceptionHandler(error -> {
        LOG.atInfo().addKeyValue("roomId", roomId).addKeyValue("clientId", clientId)
            .addKeyValue("error", String.valueOf(error.getMessage())).log("ws.error");
        // Vert.x reports a message over the size limit as an error and keeps reading, and a single frame
        // over it as a corrupt frame; the protocol says 1009 for both.
        if (String.valueOf(error.getMessage()).contains("max message size")
            || error instanceof CorruptedWebSocketFrameException corrupt && corrupt.closeStatus() == WebSocketCloseStatus.MESSAGE_TOO_BIG) {
          client.closeTooBig(config.bridge().maxMessageBytes());
        }
      });
      socket.binaryMessageHandler(bytes -> client.sendDirect(RoomTopic.ERROR,
          InboundFrames.Refusal.of(FailureCode.INVALID_FRAME, "send JSON text frames, not binary").payload()));
      socket.pause();
      hub.join(roomId, client, lastEventId).onComplete(joined -> {
        if (joined.failed()) {
          client.close("could not join the room");
          return;
        }
        Room room = joined.result();
        client.sendDirect(RoomTopic.CANVAS_HOST, new JsonObject().put("type", "canvas:hello").put("roomId", roomId)
            .put("clientId", clientId).put("hostClientId", room.hostId().orElse(null)).put("latestEventId", room.latestEventId()));
        socket.textMessageHandler(text -> {
          if (!rate.tryTake()) {
            client.sendDirect(RoomTopic.ERROR, InboundFrames.Refusal.of(FailureCode.RATE_LIMITED,
                "more than " + config.bridge().messagesPerSecond() + " messages a second; this one was dropped").payload());
            return;
          }
          inbound.handleText(client, room, text).onSuccess(refusal -> {
            if (refusal != null) {
              client.sendDirect(RoomTopic.ERROR, refusal.payload());
            }
          });
        });
        socket.resume();
      });
    });
  }

  /** A person's edit: {@code {baseRevision, put, remove}}, applied whole or not at all. */
  private void change(RoutingContext ctx) {
    String roomId = roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.EDITOR, roomId)) {
      return;
    }
    JsonObject request = jsonBody(ctx, changeRequestSchema);
    if (request == null) {
      return;
    }
    JsonObject ask = new JsonObject()
        .put("roomId", roomId)
        .put("baseRev", request.getLong("baseRevision"))
        .put("diff", new JsonObject()
            .put("put", request.getJsonArray("put", new io.vertx.core.json.JsonArray()))
            .put("remove", request.getJsonArray("remove", new io.vertx.core.json.JsonArray())))
        .put("author", "person");
    vertx.eventBus().<JsonObject>request(Address.PATCH_BOARD_CHANGE, ask)
        .onSuccess(reply -> sendJson(ctx, 200, new JsonObject().put("ok", true).put("roomId", roomId)
            .put("revision", reply.body().getLong("rev"))))
        .onFailure(error -> {
          if (dev.canvasagent.bus.Failure.of(error).code() != FailureCode.REVISION_CONFLICT) {
            HttpErrors.send(ctx, error);
            return;
          }
          // Tell the client where the board is now, so it can rebase its edit.
          vertx.eventBus().<JsonObject>request(Address.PATCH_BOARD_GET, new JsonObject().put("roomId", roomId))
              .onComplete(current -> HttpErrors.send(ctx, FailureCode.REVISION_CONFLICT, error.getMessage(),
                  current.succeeded() ? new JsonObject().put("revision", current.result().body().getLong("rev")) : new JsonObject()));
        });
  }

  /** One utterance for the room's transcript: {@code {speaker, text, ts?}}. */
  private void transcript(RoutingContext ctx) {
    String roomId = roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.EDITOR, roomId)) {
      return;
    }
    JsonObject request = jsonBody(ctx, transcriptSchema);
    JsonObject ask = request == null ? null : IdempotencyKeyHeader.addTo(ctx, request.copy().put("roomId", roomId));
    if (ask == null) {
      return;
    }
    Long ts = request.getLong("ts");
    if (ts != null && ts > System.currentTimeMillis() + TRANSCRIPT_MAX_FUTURE_MS) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "#/ts: " + ts + " is more than "
          + TRANSCRIPT_MAX_FUTURE_MS / 60_000 + " minutes in the future");
      return;
    }
    vertx.eventBus().<JsonObject>request(Address.RUNNER_TRANSCRIPT_ADD, ask)
        .onSuccess(reply -> sendJson(ctx, 201, new JsonObject().put("ok", true).put("roomId", roomId).put("utterance", reply.body())))
        .onFailure(error -> HttpErrors.send(ctx, error));
  }

  private void board(RoutingContext ctx) {
    String roomId = roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    vertx.eventBus().<JsonObject>request(Address.PATCH_BOARD_GET, new JsonObject().put("roomId", roomId))
        .onSuccess(reply -> sendJson(ctx, 200, new JsonObject()
            .put("ok", true)
            .put("roomId", roomId)
            .put("revision", reply.body().getLong("rev"))
            .put("records", reply.body().getJsonArray("records"))))
        .onFailure(error -> HttpErrors.send(ctx, error));
  }

  private void revisions(RoutingContext ctx) {
    String roomId = roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    Long after = queryLong(ctx, "after", 0, 0, Long.MAX_VALUE);
    Long limit = queryLong(ctx, "limit", 100, 1, MAX_REVISIONS_LIMIT);
    if (after == null || limit == null) {
      return;
    }
    JsonObject ask = new JsonObject().put("roomId", roomId).put("after", after).put("limit", limit.intValue());
    vertx.eventBus().<JsonObject>request(Address.PATCH_BOARD_REVISIONS, ask)
        .onSuccess(reply -> sendJson(ctx, 200, new JsonObject().put("ok", true).put("roomId", roomId).mergeIn(reply.body())))
        .onFailure(error -> HttpErrors.send(ctx, error));
  }

  /**
   * The agent's todo list of a session, in list order, or only the items of one {@code ?status=};
   * 404 for a session the server does not know.
   */
  private void todos(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    if (sessionId == null || !SESSION_ID.matcher(sessionId).matches()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "sessionId must match " + SESSION_ID.pattern());
      return;
    }
    List<String> statuses = ctx.queryParam("status");
    if (statuses.size() > 1 || (statuses.size() == 1 && TodoStore.Status.fromWire(statuses.get(0)).isEmpty())) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "status must be one of open, done, skipped");
      return;
    }
    access.session(ctx, Role.VIEWER, sessionId, () -> vertx.eventBus().<JsonObject>request(Address.SCHEDULER_TODOS, new JsonObject().put("sessionId", sessionId))
        .onSuccess(reply -> {
          JsonObject answer = reply.body();
          if (statuses.size() == 1) {
            answer.put("todos", new io.vertx.core.json.JsonArray(answer.getJsonArray("todos").stream()
                .filter(todo -> statuses.get(0).equals(((JsonObject) todo).getString("status"))).toList()));
          }
          sendJson(ctx, 200, new JsonObject().put("ok", true).mergeIn(answer));
        })
        .onFailure(error -> HttpErrors.send(ctx, error)));
  }

  /** A stream opened with a token ends when the token does: the client reconnects with a fresh one. */
  private long closeAtExpiry(Grant grant, RoomClient client) {
    return grant.expiry().map(expiresAt -> vertx.setTimer(Math.max(1, expiresAt - System.currentTimeMillis()),
        expired -> client.close("the access token has expired"))).orElse(-1L);
  }

  /** The path's room id, or null after answering 400. */
  private static String roomId(RoutingContext ctx) {
    String roomId = ctx.pathParam("roomId");
    if (RoomId.isValid(roomId)) {
      return roomId;
    }
    HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "roomId must match " + RoomId.PATTERN.pattern());
    return null;
  }

  /** The query parameter as a number in range, or null after answering 400. */
  static Long queryLong(RoutingContext ctx, String name, long fallback, long min, long max) {
    List<String> values = ctx.queryParam(name);
    if (values.isEmpty()) {
      return fallback;
    }
    try {
      long value = Long.parseLong(values.get(0));
      if (values.size() == 1 && value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, name + " must be one integer between " + min + " and " + max);
    return null;
  }

  private void health(RoutingContext ctx) {
    Map<String, Future<JsonObject>> probes = new LinkedHashMap<>();
    DeliveryOptions timeout = new DeliveryOptions().setSendTimeout(HEALTH_PROBE_TIMEOUT_MS);
    for (String verticle : verticleNames) {
      probes.put(verticle, vertx.eventBus().<JsonObject>request(Address.health(verticle), new JsonObject(), timeout)
          .map(reply -> reply.body())
          .otherwise(error -> new JsonObject().put("ok", false).put("error", String.valueOf(error.getMessage()))));
    }
    Future.join(List.copyOf(probes.values())).onComplete(all -> {
      JsonObject verticles = new JsonObject();
      probes.forEach((verticle, probe) -> verticles.put(verticle, probe.result()));
      JsonObject store = verticles.getJsonObject("patch-engine", new JsonObject()).getJsonObject("store",
          new JsonObject().put("ok", false).put("error", "the patch engine did not report the store"));
      boolean ok = verticles.stream().allMatch(entry -> ((JsonObject) entry.getValue()).getBoolean("ok", false))
          && store.getBoolean("ok", false);
      JsonObject answer = new JsonObject().put("ok", ok).put("status", ok ? "up" : "down");
      showsHealthDetails(ctx).onComplete(details -> sendJson(ctx, ok ? 200 : 503, details.succeeded() && details.result()
          ? answer.put("store", store).put("model", config.model().defaultModel()).put("verticles", verticles)
          : answer));
    });
  }

  /**
   * Whether {@code /health} may show its details: the verticles' activity counters (clients, rooms,
   * commits, runs, queues) and the store's state. With auth on they are the whole server's activity,
   * so only an admin's token sees them; a probe without one gets up or down. With auth off every
   * caller is on loopback and holds the open grant.
   */
  private Future<Boolean> showsHealthDetails(RoutingContext ctx) {
    if (tokens.isEmpty()) {
      return Future.succeededFuture(true);
    }
    List<String> headers = ctx.request().headers().getAll(HttpHeaders.AUTHORIZATION);
    if (headers.size() != 1 || !headers.get(0).regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Future.succeededFuture(false);
    }
    return tokens.get().verify(headers.get(0).substring(7).strip()).map(grant -> grant.role() == Role.ADMIN);
  }

  @Override
  protected Future<JsonObject> health() {
    return Future.succeededFuture(new JsonObject().put("ok", true).put("clients", hub.clients()).put("rooms", hub.rooms())
        .put("pendingAcks", hub.pendingAcks()).put("connections", gate.counts()));
  }

  static void sendJson(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json; charset=utf-8").end(body.encode());
  }

  @Override
  public Future<?> stop() {
    limits.stop();
    hub.closeAll("the server is shutting down");
    return server == null ? Future.succeededFuture() : server.close();
  }
}
