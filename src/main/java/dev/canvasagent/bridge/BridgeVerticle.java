package dev.canvasagent.bridge;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomViewports;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.mcp.CanvasMcp;
import dev.canvasagent.mcp.McpSessions;
import dev.canvasagent.store.AssetStore;
import dev.canvasagent.store.RateLimits;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP edge and the only verticle that speaks HTTP: REST requests become event-bus requests, and
 * a room's topics become Server-Sent Events, WebSocket frames and SockJS bridge messages
 * ({@code /eventbus}, {@link SockJSBridge}). Every refusal is a 4xx with {@code {ok:false, error}}.
 * This class is the wiring: the server's options, the connection gate, the order of the router's
 * handlers, and start and stop. The routes are in one class per resource ({@link RunRoutes},
 * {@link RoomRoutes}, {@link StreamRoutes}, {@link SessionRoutes}, {@link DocumentRoutes}, …).
 */
public final class BridgeVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeVerticle.class);

  private final AppConfig config;
  private final ActionCatalog catalog;
  private final DocumentToolCatalog documentTools = new DocumentToolCatalog();
  private final List<String> verticleNames;
  private final Optional<AccessTokens> tokens;
  private final RateLimits runCounts;
  private final AssetStore assets;
  private final ClusterView cluster;
  private ClusterLink link;
  private Sequencers sequencers;
  private ClusterHosts hosts;
  private EdgeAccess access;
  private EdgeLimits limits;
  private ConnectionGate gate;
  private RoomHub hub;
  private InboundFrames inbound;
  private McpSessions mcpSessions;
  private HttpServer server;

  /** Read and written on this verticle's event loop only ({@link #serve}, {@link #drain}). */
  private NodePhase phase = NodePhase.STARTING;

  /**
   * {@code verticleNames}: the verticles whose health {@code GET /health} reports, this one included;
   * {@code tokens}: the token verifier, empty when auth is off; {@code runCounts}: the store's rate
   * limits, where runs a minute are counted (on PostgreSQL, across the cluster); {@code assets}: the
   * store's assets, which the asset routes read and write directly (bytes never cross the bus); {@code cluster}: the
   * nodes that share the rooms (rooms across nodes, docs/cluster.md), shown by {@code /health}.
   */
  public BridgeVerticle(
      AppConfig config,
      ActionCatalog catalog,
      List<String> verticleNames,
      Optional<AccessTokens> tokens,
      RateLimits runCounts,
      AssetStore assets,
      ClusterView cluster) {
    this.config = config;
    this.catalog = catalog;
    this.verticleNames = List.copyOf(verticleNames);
    this.tokens = tokens;
    this.runCounts = runCounts;
    this.assets = assets;
    this.cluster = cluster;
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
    link = new ClusterLink(vertx, cluster.nodeId());
    hub = new RoomHub(vertx, config.bridge(), cluster, link);
    sequencers = new Sequencers(link, cluster, config.bridge().replayEvents(), hub::sequenced);
    hosts = new ClusterHosts(vertx, link);
    limits = new EdgeLimits(vertx, config.limits(), tokens.isPresent(), runCounts);
    limits.start();
    inbound = new InboundFrames(vertx, limits);
    access = new EdgeAccess(vertx, tokens);
    gate = new ConnectionGate(vertx, config.http(), config.limits());
    Router router = Router.router(vertx);
    JsonBody body = JsonBody.withServerLimit(config.http().bodyLimitBytes());

    // First of all: the head is in, so its deadline is met and the body's (if any) starts.
    router.route().handler(gate::headArrived);
    // Before any route: a browser page from another origin is refused, a listed one gets CORS.
    router.route().handler(new OriginGuard(config.http().corsOrigins(), tokens.isEmpty()));

    // Prometheus scrapes with an admin's token, outside /api like /health (MetricsRoute), and
    // from the moment the node listens: a slow start is worth watching.
    new MetricsRoute(vertx, access).mount(router);
    // A load balancer's probe carries no token, so /health is outside /api (HealthRoute).
    // The edge listens before the verticles behind it are deployed, so that readiness can say
    // "starting"; until they are, everything but the health routes and /metrics is refused, never
    // half-served.
    router.route().handler(this::refuseWhileStarting);
    new HealthRoute(
            vertx, verticleNames, tokens, config.model().defaultModel(), cluster, () -> phase)
        .mount(router);
    // The API is under /api and the bus under /eventbus; the browser client's page and assets,
    // public like any web page, are everything else (PageRoutes). /api is authenticated here,
    // before any body is read; the SockJS bridge checks the token of each message itself
    // (SockJSBridge).
    router.route("/api/*").handler(limits::screenUnauthenticated);
    router.route("/api/*").handler(access::authenticate);
    router.route("/api/*").handler(limits::countRequest);
    new CatalogRoute(catalog, config.themeEnabled()).mount(router);
    new RunRoutes(vertx, access, limits).mount(router, body);
    new StreamRoutes(vertx, hub, inbound, limits, config.bridge(), config.http().sseHeartbeatMs())
        .mount(router);
    new RoomRoutes(vertx).mount(router, body);
    new AssetRoutes(assets, config.assets().maxBytes()).mount(router);
    new SessionRoutes(vertx, access).mount(router, body);
    new AdminRoutes(vertx, hub, cluster).mount(router);
    new DocumentRoutes(
            vertx,
            access,
            limits,
            documentTools,
            config.documents().maxContentBytes(),
            config.documents().agentTimeoutMs())
        .mount(router);
    new EventBusRoutes(
            new SockJSBridge(
                vertx,
                hub,
                inbound,
                limits,
                config.bridge(),
                config.http().sseHeartbeatMs(),
                tokens),
            config.bridge().maxMessageBytes())
        .mount(router);

    mcpSessions =
        new McpSessions(
            vertx, config.mcp().maxSessions(), config.mcp().sessionIdleMs(), ended -> {});
    mcpSessions.start();
    new McpRoutes(
            vertx,
            CanvasMcp.server(
                vertx,
                catalog,
                documentTools,
                new McpRunAdmission(limits),
                DocumentRoutes.delegationTimeoutMs(config.documents().agentTimeoutMs())),
            mcpSessions,
            access,
            limits,
            config.http().bodyLimitBytes(),
            config.http().sseHeartbeatMs())
        .mount(router);

    // The browser client, after every other route: it never answers for /api, /eventbus or /health.
    new PageRoutes(PageRoutes.WEBROOT).mount(router);
    router.errorHandler(
        404,
        ctx ->
            HttpErrors.send(
                ctx,
                FailureCode.NOT_FOUND,
                "no route for " + ctx.request().method() + " " + ctx.request().path()));
    router.errorHandler(
        405,
        ctx ->
            HttpErrors.send(
                ctx,
                FailureCode.METHOD_NOT_ALLOWED,
                ctx.request().method() + " is not allowed on " + ctx.request().path()));
    router.errorHandler(
        413,
        ctx ->
            HttpErrors.send(
                ctx,
                FailureCode.BODY_TOO_LARGE,
                "the body exceeds " + config.http().bodyLimitBytes() + " bytes"));
    router.errorHandler(
        400,
        ctx -> HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "the request could not be read"));
    router.errorHandler(
        500,
        ctx -> {
          LOG.atError()
              .addKeyValue("path", ctx.request().path())
              .setCause(ctx.failure())
              .log("http.unhandled");
          HttpErrors.send(ctx, FailureCode.INTERNAL, "internal error");
        });

    HttpServerOptions options =
        new HttpServerOptions()
            .setHost(config.http().host())
            .setPort(config.http().port())
            .setMaxInitialLineLength(8 * 1024)
            .setMaxHeaderSize(16 * 1024)
            .setMaxWebSocketMessageSize(config.bridge().maxMessageBytes())
            // Browsers send each message as one frame: a frame may be as large as a message, or
            // every message over the frame limit (a screenshot, say) would drop its connection.
            .setMaxWebSocketFrameSize(config.bridge().maxMessageBytes())
            // No byte either way for this long closes any connection. Every stream has traffic more
            // often (heartbeats, pings: CANVAS_AGENT_SSE_HEARTBEAT_MS, at most half of it,
            // ConfigLoader checks).
            .setIdleTimeout(config.http().idleTimeoutMs())
            .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
            // Without cleartext HTTP/2, a connection is HTTP/1 from its first byte, and the gate
            // sees it when it is accepted. With it, Vert.x waits for bytes to choose, and a
            // connection that sends none would never reach the gate's cap or head deadline.
            // Browsers speak HTTP/2 over TLS only.
            .setHttp2ClearTextEnabled(false);
    Future<?> viewports = answer(Address.BRIDGE_VIEWPORTS, this::viewports);
    cluster.onMembersChanged(
        members -> {
          sequencers.membersChanged(members);
          hub.membersChanged(members);
          hosts.membersChanged(members);
        });
    return Future.all(viewports, linkRooms())
        .compose(
            registered ->
                vertx
                    .createHttpServer(options)
                    .connectionHandler(gate::accept)
                    .requestHandler(router)
                    .listen())
        .onSuccess(listening -> server = listening);
  }

  /**
   * This node's part in rooms across nodes: as the owner of rooms (watches, clients, viewports, hosts:
   * {@link Sequencers}) and as a node that serves rooms (their streams, its clients' viewports: {@link
   * RoomHub}), and every owner's announcements of hosts ({@link ClusterHosts}).
   */
  private Future<Void> linkRooms() {
    Map<ClusterLink.Op, Function<JsonObject, Future<JsonObject>>> handlers =
        new EnumMap<>(ClusterLink.Op.class);
    handlers.put(
        ClusterLink.Op.WATCH,
        body -> sequencers.watch(RoomWatch.fromJson(body)).map(RoomSnapshot::toJson));
    handlers.put(
        ClusterLink.Op.UNWATCH,
        body -> {
          sequencers.unwatch(RoomWatch.fromJson(body));
          return Future.succeededFuture(new JsonObject());
        });
    handlers.put(ClusterLink.Op.CLIENT, body -> sequencers.client(RoomClientChange.fromJson(body)));
    handlers.put(
        ClusterLink.Op.SEQUENCED,
        body -> {
          hub.sequenced(Sequenced.fromJson(body));
          return Future.succeededFuture(new JsonObject());
        });
    handlers.put(
        ClusterLink.Op.VIEWPORTS,
        body -> sequencers.viewports(RoomRef.fromJson(body)).map(RoomViewports::toJson));
    handlers.put(
        ClusterLink.Op.NODE_VIEWPORTS,
        body -> Future.succeededFuture(viewportsHere(RoomRef.fromJson(body)).toJson()));
    handlers.put(ClusterLink.Op.HOSTS, body -> Future.succeededFuture(sequencers.hosts()));
    return link.start(handlers, hosts::announced);
  }

  /**
   * The room's viewports on every node, as its owner gathers them; this node's alone when the owner
   * cannot be asked.
   */
  private Future<RoomViewports> viewports(RoomRef ask) {
    return link.request(cluster.ownerOf(ask.roomId()), ClusterLink.Op.VIEWPORTS, ask)
        .map(RoomViewports::fromJson)
        .recover(unreachable -> Future.succeededFuture(viewportsHere(ask)));
  }

  /** The room's viewports on this node; none for a room without clients here. */
  private RoomViewports viewportsHere(RoomRef ask) {
    return hub.room(ask.roomId())
        .map(Room::viewports)
        .orElseGet(() -> new RoomViewports(ask.roomId(), null, List.of()));
  }

  /**
   * Every verticle behind the edge is deployed: the API opens and {@code /health/ready} may answer
   * 200. The hosts other nodes elected are asked for now, when this node's screenshot verticle is
   * there to be told. Completes once done on this verticle's event loop.
   */
  public Future<Void> serve() {
    return onThisContext(
        () -> {
          if (phase == NodePhase.STARTING) {
            phase = NodePhase.SERVING;
            hosts.catchUp(cluster.members());
          }
        });
  }

  /**
   * A shutdown begins: {@code /health/ready} answers 503 {@code draining} from now on; the rest
   * serves on (the scheduler refuses new runs) until the verticle is undeployed.
   */
  public Future<Void> drain() {
    return onThisContext(() -> phase = NodePhase.DRAINING);
  }

  private Future<Void> onThisContext(Runnable change) {
    Promise<Void> done = Promise.promise();
    context.runOnContext(
        now -> {
          change.run();
          done.complete();
        });
    return done.future();
  }

  private void refuseWhileStarting(RoutingContext ctx) {
    if (phase != NodePhase.STARTING || HealthRoute.PATHS.contains(ctx.request().path())) {
      ctx.next();
      return;
    }
    HttpErrors.send(
        ctx,
        FailureCode.STARTING,
        "this server is still starting: only /health, /health/live and /health/ready answer yet");
  }

  @Override
  protected Future<JsonObject> health() {
    return Future.succeededFuture(
        new JsonObject()
            .put("ok", true)
            .put("clients", hub.clients())
            .put("rooms", hub.rooms())
            .put("pendingAcks", hub.pendingAcks())
            .put("nodeId", cluster.nodeId())
            .put("sequencing", sequencers.health())
            .put("connections", gate.counts()));
  }

  @Override
  public Future<?> stop() {
    limits.stop();
    hub.closeAll("the server is shutting down");
    mcpSessions.closeAll("the server is shutting down");
    sequencers.stopAll();
    link.stop();
    return server == null ? Future.succeededFuture() : server.close();
  }
}
