package dev.canvasagent.bridge;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.store.RateLimits;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one client and one room may use ({@link AppConfig.Limits}). A client is the token's
 * subject when auth is on, else the remote address of the connection. {@code X-Forwarded-For} is not
 * read: any client could write it. Over a limit, an HTTP request is answered 429 with {@code
 * Retry-After} and {@code RATE_LIMITED}, and a message or connection is refused with the same code;
 * nothing else is touched. The cost-bearing limits, runs a minute per client and per room, are
 * counted in the store ({@link RunAllowance}): on PostgreSQL by every node against one allowance.
 * Every other count is this node's own and lives on the bridge's event loop.
 */
final class EdgeLimits {
  private static final Logger LOG = LoggerFactory.getLogger(EdgeLimits.class);

  /** Keys one rate limit tracks at most: far above a node's clients or rooms, and a bound on memory. */
  static final int MAX_KEYS = 100_000;

  /** How often keys whose allowance has refilled are forgotten. */
  static final long EVICT_EVERY_MS = 30_000;

  static final String RETRY_AFTER = "Retry-After";

  private final Vertx vertx;
  private final boolean byToken;
  private final RunAllowance runs;
  private final RateLimit requests;
  private final RateLimit roomMessages;
  private final RateLimit screenshotBytes;
  private final RateLimit refusedTokens;
  private final OpenConnections connections;
  private long evictTimer = -1;

  /** What one open stream holds of the counts, given back once when it closes. */
  static final class Hold {
    private final List<Runnable> releases = new ArrayList<>(2);
    private boolean released;

    void add(Runnable release) {
      if (released) {
        release.run();
      } else {
        releases.add(release);
      }
    }

    void release() {
      if (!released) {
        released = true;
        releases.forEach(Runnable::run);
        releases.clear();
      }
    }
  }

  /**
   * {@code byToken}: auth is on, so a client is its token's subject rather than its address; {@code
   * counts}: the store's rate limits, where runs are counted.
   */
  EdgeLimits(Vertx vertx, AppConfig.Limits limits, boolean byToken, RateLimits counts) {
    this.vertx = vertx;
    this.byToken = byToken;
    Duration minute = Duration.ofMinutes(1);
    Duration second = Duration.ofSeconds(1);
    this.runs = new RunAllowance(counts, limits.runsPerMinute(), limits.roomRunsPerMinute());
    this.requests =
        new RateLimit(
            "requests_per_second",
            "API requests a second from this client (CANVAS_AGENT_REQUESTS_PER_SECOND)",
            limits.requestsPerSecond(),
            second,
            MAX_KEYS);
    this.roomMessages =
        new RateLimit(
            "room_messages_per_second",
            "messages a second into this room (CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND)",
            limits.roomMessagesPerSecond(),
            second,
            MAX_KEYS);
    this.screenshotBytes =
        new RateLimit(
            "screenshot_bytes_per_minute",
            "screenshot bytes a minute from this client (CANVAS_AGENT_SCREENSHOT_BYTES_PER_MINUTE)",
            limits.screenshotBytesPerMinute(),
            minute,
            MAX_KEYS);
    // A request without a valid token has no subject to count against: its address pays instead, so
    // a flood of bad tokens is bounded like anyone's requests.
    this.refusedTokens =
        new RateLimit(
            "unauthenticated_requests_per_second",
            "requests refused 401 a second from this address (CANVAS_AGENT_REQUESTS_PER_SECOND)",
            limits.requestsPerSecond(),
            second,
            MAX_KEYS);
    this.connections = new OpenConnections(limits.connectionsPerAddress(), limits.roomsPerClient());
  }

  void start() {
    evictTimer =
        vertx.setPeriodic(
            EVICT_EVERY_MS,
            tick -> {
              for (RateLimit limit :
                  List.of(requests, roomMessages, screenshotBytes, refusedTokens)) {
                limit.evictIdle();
              }
              runs.forgetRefilled();
            });
  }

  void stop() {
    vertx.cancelTimer(evictTimer);
  }

  /** The client a request counts against. */
  String client(RoutingContext ctx) {
    return client(EdgeAccess.grant(ctx), ctx.request().remoteAddress());
  }

  /** The client a connection with {@code grant} from {@code remote} counts against. */
  String client(Grant grant, SocketAddress remote) {
    return byToken ? "subject:" + grant.subject() : "address:" + address(remote);
  }

  static String address(SocketAddress remote) {
    return remote == null || remote.hostAddress() == null ? "unknown" : remote.hostAddress();
  }

  /**
   * Before authentication on every {@code /api} route, with auth on: an address whose requests were
   * refused 401 more than the allowance a second gets 429 until its allowance refills. Each 401 it
   * gets is counted once the answer is written.
   */
  void screenUnauthenticated(RoutingContext ctx) {
    if (!byToken) {
      ctx.next();
      return;
    }
    String address = address(ctx.request().remoteAddress());
    Optional<RateLimit.Over> over = refusedTokens.check(address, 1);
    if (over.isPresent()) {
      refuse(ctx, over.get());
      return;
    }
    ctx.addHeadersEndHandler(
        written -> {
          if (ctx.response().getStatusCode() == 401) {
            refusedTokens.take(address, 1);
          }
        });
    ctx.next();
  }

  /** After authentication on every {@code /api} route: one of the client's requests a second. */
  void countRequest(RoutingContext ctx) {
    Optional<RateLimit.Over> over = requests.take(client(ctx), 1);
    if (over.isPresent()) {
      refuse(ctx, over.get());
    } else {
      ctx.next();
    }
  }

  /**
   * One run from the request's client in {@code roomId}, counted against both limits or neither:
   * true when counted; false after answering (429, or the store's failure).
   */
  Future<Boolean> takeRun(RoutingContext ctx, String roomId) {
    return runs.take(client(ctx), roomId)
        .map(
            over -> {
              if (over.isEmpty()) {
                return true;
              }
              LOG.atInfo()
                  .addKeyValue("roomId", roomId)
                  .addKeyValue("path", ctx.request().path())
                  .log("edge.runs_limited");
              refuse(ctx, over.get());
              return false;
            })
        .otherwise(
            error -> {
              HttpErrors.send(ctx, error);
              return false;
            });
  }

  /** A run {@link #takeRun} counted was refused further in (a busy session, a full queue): it does not count. */
  Future<Void> giveBackRun(RoutingContext ctx, String roomId) {
    return runs.giveBack(client(ctx), roomId);
  }

  /**
   * One run from a tool call of {@code grant} ({@code /mcp}) in {@code roomId}, counted against both
   * limits or neither: empty when counted, else why not. A tool call knows its token but not its
   * connection, so with auth off every MCP client counts as one client, of an unknown address.
   */
  Future<Optional<RateLimit.Over>> takeRun(Grant grant, String roomId) {
    return runs.take(client(grant, null), roomId);
  }

  /** A run {@link #takeRun(Grant, String)} counted was refused further in: it does not count. */
  Future<Void> giveBackRun(Grant grant, String roomId) {
    return runs.giveBack(client(grant, null), roomId);
  }

  /** An event stream or WebSocket of {@code roomId} about to open: what it holds, or null after answering 429. */
  Hold openStream(RoutingContext ctx, String roomId) {
    String address = address(ctx.request().remoteAddress());
    String client = client(ctx);
    Optional<RateLimit.Over> over =
        connections.checkAddress(address).or(() -> connections.checkRoom(client, roomId));
    if (over.isPresent()) {
      LOG.atInfo()
          .addKeyValue("roomId", roomId)
          .addKeyValue("path", ctx.request().path())
          .log("edge.stream_refused");
      refuse(ctx, over.get());
      return null;
    }
    Hold hold = new Hold();
    open(address, hold);
    join(client, roomId, hold);
    return hold;
  }

  /** A SockJS connection from {@code remote} opening: counted in {@code hold}, or refused. */
  Optional<RateLimit.Over> openSocket(SocketAddress remote, Hold hold) {
    String address = address(remote);
    Optional<RateLimit.Over> over = connections.checkAddress(address);
    if (over.isEmpty()) {
      open(address, hold);
    }
    return over;
  }

  /** A SockJS connection joining its room (its first registration): counted in {@code hold}, or refused. */
  Optional<RateLimit.Over> joinRoom(String client, String roomId, Hold hold) {
    Optional<RateLimit.Over> over = connections.checkRoom(client, roomId);
    if (over.isEmpty()) {
      join(client, roomId, hold);
    }
    return over;
  }

  /** One inbound message (WebSocket frame, SockJS send) into {@code roomId}, whoever sent it. */
  Optional<RateLimit.Over> roomMessage(String roomId) {
    return roomMessages.take(roomId, 1);
  }

  /** A screenshot of {@code bytes} (its data URL's length) from {@code client}. */
  Optional<RateLimit.Over> screenshot(String client, long bytes) {
    return screenshotBytes.take(client, bytes);
  }

  private void open(String address, Hold hold) {
    connections.openFrom(address);
    hold.add(() -> connections.closedFrom(address));
  }

  private void join(String client, String roomId, Hold hold) {
    connections.joined(client, roomId);
    hold.add(() -> connections.left(client, roomId));
  }

  /** A refusal answered elsewhere (an MCP tool call's, a SockJS connection's): counted by its limit. */
  void counted(RateLimit.Over over) {
    CanvasMetrics.of(vertx).rateLimited(over.limit());
  }

  /** 429 with {@code Retry-After} in whole seconds; counted by its limit. */
  static void refuse(RoutingContext ctx, RateLimit.Over over) {
    CanvasMetrics.of(ctx.vertx()).rateLimited(over.limit());
    LOG.atDebug()
        .addKeyValue("path", ctx.request().path())
        .addKeyValue("retryAfterSeconds", over.retryAfterSeconds())
        .log("edge.rate_limited");
    if (!ctx.response().headWritten()) {
      ctx.response().putHeader(RETRY_AFTER, String.valueOf(over.retryAfterSeconds()));
    }
    HttpErrors.send(ctx, FailureCode.RATE_LIMITED, over.message());
  }

  /** The error frame of a refused message: {@code RATE_LIMITED}, the message, and {@code retryAfterSeconds}. */
  InboundFrames.Refusal refusal(RateLimit.Over over) {
    counted(over);
    InboundFrames.Refusal refusal =
        InboundFrames.Refusal.of(FailureCode.RATE_LIMITED, over.message());
    refusal.payload().put("retryAfterSeconds", over.retryAfterSeconds());
    return refusal;
  }
}
