package dev.canvasagent.bridge;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.RoomId;
import dev.canvasagent.mcp.JsonRpcError;
import dev.canvasagent.mcp.JsonRpcMessage;
import dev.canvasagent.mcp.McpProtocol;
import dev.canvasagent.mcp.McpServer;
import dev.canvasagent.mcp.McpSession;
import dev.canvasagent.mcp.McpSessions;
import dev.canvasagent.mcp.ToolProgress;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.schema.NulCharacters;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /mcp}: MCP's Streamable HTTP transport on the server's own port, with the same tokens, origins
 * and rate limits as {@code /api}. {@code POST} carries one JSON-RPC message: a notification or
 * response is answered 202; a request is answered as JSON, or as an event stream (its progress
 * notifications, then its response) when it asked for progress. {@code initialize} opens a session and
 * answers its id in {@code Mcp-Session-Id}, which every later request carries; {@code GET} opens the
 * session's notification stream (resource updates); {@code DELETE} ends the session. Refusals are
 * JSON-RPC errors with the HTTP status the transport gives them (400, 404 for an unknown session, 406,
 * 413, 415). The protocol itself is {@link McpServer}'s.
 */
final class McpRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(McpRoutes.class);
  static final String PATH = "/mcp";
  private static final String EVENT_STREAM = "text/event-stream";
  private static final String JSON = "application/json";

  private final Vertx vertx;
  private final McpServer server;
  private final McpSessions sessions;
  private final EdgeAccess access;
  private final EdgeLimits limits;
  private final int bodyLimitBytes;
  private final long heartbeatMs;

  McpRoutes(
      Vertx vertx,
      McpServer server,
      McpSessions sessions,
      EdgeAccess access,
      EdgeLimits limits,
      int bodyLimitBytes,
      long heartbeatMs) {
    this.vertx = vertx;
    this.server = server;
    this.sessions = sessions;
    this.access = access;
    this.limits = limits;
    this.bodyLimitBytes = bodyLimitBytes;
    this.heartbeatMs = heartbeatMs;
  }

  void mount(Router router) {
    router.route(PATH).handler(limits::screenUnauthenticated);
    router.route(PATH).handler(access::authenticate);
    router.route(PATH).handler(limits::countRequest);
    router
        .post(PATH)
        .handler(BodyHandler.create(false).setBodyLimit(bodyLimitBytes))
        .handler(this::post)
        .failureHandler(this::bodyFailure);
    router.get(PATH).handler(this::stream);
    router.delete(PATH).handler(this::delete);
    router
        .route(PATH)
        .handler(
            ctx -> {
              ctx.response().putHeader(HttpHeaders.ALLOW, "GET, POST, DELETE");
              refuse(
                  ctx,
                  405,
                  null,
                  new JsonRpcError(
                      JsonRpcError.INVALID_REQUEST,
                      ctx.request().method()
                          + " is not allowed on /mcp: POST, GET and DELETE are"));
            });
  }

  private void bodyFailure(RoutingContext ctx) {
    if (ctx.statusCode() == 413) {
      refuse(
          ctx,
          413,
          null,
          new JsonRpcError(
              JsonRpcError.INVALID_REQUEST,
              "the message exceeds " + bodyLimitBytes + " bytes (CANVAS_AGENT_BODY_LIMIT_BYTES)"));
    } else {
      ctx.next();
    }
  }

  private void post(RoutingContext ctx) {
    String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith(JSON)) {
      refuse(
          ctx,
          415,
          null,
          new JsonRpcError(
              JsonRpcError.INVALID_REQUEST,
              "send the JSON-RPC message as application/json"
                  + (contentType == null ? "" : ", not " + abbreviated(contentType))));
      return;
    }
    if (!accepts(ctx, JSON) || !accepts(ctx, EVENT_STREAM)) {
      refuse(
          ctx,
          406,
          null,
          new JsonRpcError(
              JsonRpcError.INVALID_REQUEST,
              "Accept must list both application/json and text/event-stream"));
      return;
    }
    Object parsed;
    try {
      Buffer body = ctx.body().buffer();
      parsed = body == null || body.length() == 0 ? null : body.toJsonValue();
    } catch (DecodeException notJson) {
      refuse(
          ctx, 400, null, new JsonRpcError(JsonRpcError.PARSE_ERROR, "the body is not valid JSON"));
      return;
    }
    JsonRpcMessage message;
    try {
      message = JsonRpcMessage.read(parsed);
    } catch (JsonRpcError invalid) {
      refuse(ctx, 400, idOf(parsed), invalid);
      return;
    }
    Optional<String> nul = NulCharacters.firstPointer((JsonObject) parsed);
    if (nul.isPresent()) {
      refuse(
          ctx,
          400,
          message.id(),
          JsonRpcError.invalidParams(nul.get() + ": " + NulCharacters.PROBLEM));
      return;
    }
    String version = ctx.request().getHeader(McpProtocol.VERSION_HEADER);
    if (version != null && !McpProtocol.supported(version)) {
      refuse(
          ctx,
          400,
          message.id(),
          new JsonRpcError(
              JsonRpcError.INVALID_REQUEST,
              "unsupported "
                  + McpProtocol.VERSION_HEADER
                  + " "
                  + abbreviated(version)
                  + "; this server speaks "
                  + String.join(", ", McpProtocol.SUPPORTED)));
      return;
    }
    if ("initialize".equals(message.method())) {
      initialize(ctx, message);
      return;
    }
    Optional<McpSession> session = session(ctx, message.id());
    if (session.isEmpty()) {
      return;
    }
    if (message.kind() != JsonRpcMessage.Kind.REQUEST) {
      if (message.kind() == JsonRpcMessage.Kind.NOTIFICATION) {
        server.notification(session.get(), message);
      }
      ctx.response().setStatusCode(202).end();
      return;
    }
    Grant grant = EdgeAccess.grant(ctx);
    if (message.progressToken() != null || server.longRunning(message)) {
      answerAsStream(ctx, session.get(), grant, message);
    } else {
      server
          .request(session.get(), grant, message, ToolProgress.NONE)
          .onComplete(answered -> answerAsJson(ctx, message, answered.result(), answered.cause()));
    }
  }

  private void initialize(RoutingContext ctx, JsonRpcMessage message) {
    if (message.kind() != JsonRpcMessage.Kind.REQUEST) {
      refuse(
          ctx,
          400,
          null,
          new JsonRpcError(JsonRpcError.INVALID_REQUEST, "initialize is a request: give it an id"));
      return;
    }
    if (ctx.request().getHeader(McpProtocol.SESSION_HEADER) != null) {
      refuse(
          ctx,
          400,
          message.id(),
          new JsonRpcError(
              JsonRpcError.INVALID_REQUEST,
              "initialize opens a new session: send it without " + McpProtocol.SESSION_HEADER));
      return;
    }
    Grant grant = EdgeAccess.grant(ctx);
    List<String> rooms = ctx.queryParam("room");
    String room = rooms.isEmpty() ? null : rooms.get(0);
    if (rooms.size() > 1 || room != null && !RoomId.isValid(room)) {
      refuse(
          ctx,
          400,
          message.id(),
          JsonRpcError.invalidParams("?room= names one room: 1 to 64 letters, digits, '_' or '-'"));
      return;
    }
    if (room != null && !grant.allowsRoom(room, Role.VIEWER)) {
      refuse(
          ctx,
          403,
          message.id(),
          new JsonRpcError(JsonRpcError.INVALID_REQUEST, "this token does not reach room " + room));
      return;
    }
    String version;
    try {
      version = McpServer.negotiate(message.params());
    } catch (JsonRpcError invalid) {
      refuse(ctx, 400, message.id(), invalid);
      return;
    }
    Object clientInfo = message.params().getValue("clientInfo");
    Optional<McpSession> opened =
        sessions.open(
            version,
            clientInfo instanceof JsonObject info ? info : new JsonObject(),
            grant.subject(),
            room);
    if (opened.isEmpty()) {
      ctx.response().putHeader(EdgeLimits.RETRY_AFTER, "60");
      refuse(
          ctx,
          503,
          message.id(),
          new JsonRpcError(
              JsonRpcError.INTERNAL_ERROR,
              "this node holds its maximum of MCP sessions (CANVAS_AGENT_MCP_MAX_SESSIONS); retry later"));
      return;
    }
    ctx.response()
        .putHeader(McpProtocol.SESSION_HEADER, opened.get().id())
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .setStatusCode(200)
        .end(JsonRpcMessage.result(message.id(), server.initializeResult(version)).toBuffer());
  }

  /** The request's session, or empty after answering 400 (none named) or 404 (unknown here). */
  private Optional<McpSession> session(RoutingContext ctx, Object id) {
    String named = ctx.request().getHeader(McpProtocol.SESSION_HEADER);
    if (named == null) {
      refuse(
          ctx,
          400,
          id,
          new JsonRpcError(
              JsonRpcError.INVALID_REQUEST,
              McpProtocol.SESSION_HEADER + " is required: send initialize first"));
      return Optional.empty();
    }
    Optional<McpSession> session = sessions.find(named, EdgeAccess.grant(ctx).subject());
    if (session.isEmpty()) {
      refuse(
          ctx,
          404,
          id,
          new JsonRpcError(
              JsonRpcError.SESSION_NOT_FOUND,
              "session not found (ended, idle too long, or opened on another node): initialize again"));
    }
    return session;
  }

  private static void answerAsJson(
      RoutingContext ctx, JsonRpcMessage request, JsonObject result, Throwable failure) {
    if (ctx.response().closed()) {
      return;
    }
    JsonObject answer =
        failure == null
            ? JsonRpcMessage.result(request.id(), result)
            : JsonRpcMessage.error(request.id(), asJsonRpc(failure));
    ctx.response()
        .setStatusCode(200)
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .end(answer.toBuffer());
  }

  /** The request's answer as an event stream: each progress notification as it comes, then the response. */
  private void answerAsStream(
      RoutingContext ctx, McpSession session, Grant grant, JsonRpcMessage request) {
    HttpServerResponse response =
        ctx.response()
            .setStatusCode(200)
            .setChunked(true)
            .putHeader(HttpHeaders.CONTENT_TYPE, EVENT_STREAM)
            .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
            .putHeader("X-Accel-Buffering", "no");
    response.write(": " + request.method() + "\n\n");
    Object token = request.progressToken();
    // Without a token the client asked for no progress: the stream carries heartbeats and the
    // answer.
    long heartbeat =
        vertx.setPeriodic(
            heartbeatMs,
            id -> {
              if (!response.closed()) {
                response.write(": keepalive\n\n");
              }
            });
    ToolProgress progress =
        token == null
            ? ToolProgress.NONE
            : (done, total, message) -> {
              JsonObject params =
                  new JsonObject().put("progressToken", token).put("progress", done);
              if (total != null) {
                params.put("total", total);
              }
              if (message != null) {
                params.put("message", message);
              }
              writeEvent(response, JsonRpcMessage.notification("notifications/progress", params));
            };
    server
        .request(session, grant, request, progress)
        .onComplete(
            answered -> {
              vertx.cancelTimer(heartbeat);
              JsonObject answer =
                  answered.succeeded()
                      ? JsonRpcMessage.result(request.id(), answered.result())
                      : JsonRpcMessage.error(request.id(), asJsonRpc(answered.cause()));
              writeEvent(response, answer);
              if (!response.closed()) {
                response.end();
              }
            });
  }

  /** {@code GET /mcp}: the session's stream of server notifications, until the client closes it. */
  private void stream(RoutingContext ctx) {
    if (!accepts(ctx, EVENT_STREAM)) {
      refuse(
          ctx,
          406,
          null,
          new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Accept must list text/event-stream"));
      return;
    }
    Optional<McpSession> found = session(ctx, null);
    if (found.isEmpty()) {
      return;
    }
    McpSession session = found.get();
    HttpServerResponse response = ctx.response();
    Consumer<JsonObject> writer = notification -> writeEvent(response, notification);
    if (!session.openStream(
        writer,
        () -> {
          if (!response.closed()) {
            response.end();
          }
        })) {
      refuse(
          ctx,
          409,
          null,
          new JsonRpcError(
              JsonRpcError.INVALID_REQUEST, "this session's notification stream is already open"));
      return;
    }
    response
        .setStatusCode(200)
        .setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, EVENT_STREAM)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        .putHeader("X-Accel-Buffering", "no")
        .write(": notifications\n\n");
    long heartbeat =
        vertx.setPeriodic(
            heartbeatMs,
            id -> {
              if (!response.closed()) {
                response.write(": keepalive\n\n");
              }
            });
    // Counted out once, whichever comes first: the session ends it, or the connection closes.
    Runnable counted = CanvasMetrics.of(vertx).streamOpened(CanvasMetrics.Transport.MCP);
    response.endHandler(ended -> counted.run());
    response.closeHandler(
        closed -> {
          counted.run();
          vertx.cancelTimer(heartbeat);
          session.streamClosed(writer);
        });
  }

  private void delete(RoutingContext ctx) {
    Optional<McpSession> session = session(ctx, null);
    if (session.isPresent()) {
      sessions.close(session.get(), "deleted");
      ctx.response().setStatusCode(204).end();
    }
  }

  /**
   * One SSE event. A client that reads slower than the server writes is cut off rather than
   * buffered for without bound; it may open the stream again.
   */
  private static void writeEvent(HttpServerResponse response, JsonObject message) {
    if (response.closed()) {
      return;
    }
    if (response.writeQueueFull()) {
      LOG.atInfo().log("mcp.stream.slow_reader");
      response.reset();
      return;
    }
    response.write("event: message\ndata: " + message.encode() + "\n\n");
  }

  static JsonRpcError asJsonRpc(Throwable failure) {
    if (failure instanceof JsonRpcError error) {
      return error;
    }
    dev.canvasagent.bus.Failure coded = dev.canvasagent.bus.Failure.of(failure);
    return new JsonRpcError(
        JsonRpcError.INTERNAL_ERROR,
        coded.code().name() + ": " + coded.getMessage(),
        new JsonObject().put("code", coded.code().name()));
  }

  private static void refuse(RoutingContext ctx, int status, Object id, JsonRpcError error) {
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    ctx.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .end(JsonRpcMessage.error(id, error).toBuffer());
  }

  /** Whether {@code Accept} lists {@code type}, itself or by a wildcard. */
  private static boolean accepts(RoutingContext ctx, String type) {
    String accept = ctx.request().getHeader(HttpHeaders.ACCEPT);
    if (accept == null) {
      return false;
    }
    String family = type.substring(0, type.indexOf('/')) + "/*";
    for (String part : accept.toLowerCase(Locale.ROOT).split(",")) {
      String media = part.split(";")[0].trim();
      if (media.equals(type) || media.equals(family) || media.equals("*/*")) {
        return true;
      }
    }
    return false;
  }

  /** The id of a message that could not be read as one, when it has a usable one. */
  private static Object idOf(Object parsed) {
    if (parsed instanceof JsonObject object) {
      Object id = object.getValue("id");
      if (id instanceof String || id instanceof Integer || id instanceof Long) {
        return id;
      }
    }
    return null;
  }

  private static String abbreviated(String text) {
    return text.length() > 64 ? text.substring(0, 64) + "…" : text;
  }
}
