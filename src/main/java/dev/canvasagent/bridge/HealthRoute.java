package dev.canvasagent.bridge;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.HealthProbe;
import dev.canvasagent.bus.HealthReport;
import dev.canvasagent.cluster.ClusterView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code GET /health}: up (200) or down (503) from every verticle's health probe and the store's. A load
 * balancer's probe carries no token, so the route is outside {@code /api}; with auth on, the details
 * behind the answer are an admin's to see ({@link #showsDetails}).
 *
 * <p>{@code GET /health/live}: whether every verticle's event loop answers (a stuck loop is what a
 * restart cures). {@code GET /health/ready}: whether this node should be sent traffic — started,
 * not draining, every verticle and the store healthy and, clustered, a member of the cluster; a
 * {@code reason} says why not. Neither shows details: they are for probes, which carry no token.
 */
final class HealthRoute {
  static final long PROBE_TIMEOUT_MS = 2_000;
  static final String HEALTH = "/health";
  static final String LIVE = "/health/live";
  static final String READY = "/health/ready";

  /** What the edge serves while it starts ({@code BridgeVerticle}'s gate). */
  static final Set<String> PATHS = Set.of(HEALTH, LIVE, READY);

  private final Vertx vertx;
  private final List<String> verticleNames;
  private final Optional<AccessTokens> tokens;
  private final String defaultModel;
  private final ClusterView cluster;
  private final Supplier<NodePhase> phase;

  /**
   * {@code verticleNames}: the verticles whose health it reports, the bridge included; {@code tokens}:
   * the token verifier, empty when auth is off; {@code defaultModel} and {@code cluster} (this node and
   * the members it sees): shown in the details; {@code phase}: where the node is in its life, read on
   * the bridge's event loop.
   */
  HealthRoute(
      Vertx vertx,
      List<String> verticleNames,
      Optional<AccessTokens> tokens,
      String defaultModel,
      ClusterView cluster,
      Supplier<NodePhase> phase) {
    this.vertx = vertx;
    this.verticleNames = List.copyOf(verticleNames);
    this.tokens = tokens;
    this.defaultModel = defaultModel;
    this.cluster = cluster;
    this.phase = phase;
  }

  void mount(Router router) {
    router.get(HEALTH).handler(this::health);
    router.get(LIVE).handler(this::live);
    router.get(READY).handler(this::ready);
  }

  /** Every verticle's probe, each answered or failed within {@link #PROBE_TIMEOUT_MS}. */
  private Map<String, Future<HealthReport>> probe(HealthProbe probe) {
    Map<String, Future<HealthReport>> probes = new LinkedHashMap<>();
    DeliveryOptions timeout = new DeliveryOptions().setSendTimeout(PROBE_TIMEOUT_MS);
    for (String verticle : verticleNames) {
      probes.put(
          verticle,
          Address.health(verticle)
              .ask(vertx.eventBus(), probe, timeout)
              .otherwise(error -> HealthReport.failed(String.valueOf(error.getMessage()))));
    }
    return probes;
  }

  /**
   * 200 when every deployed verticle answers its liveness probe on its own event loop within the
   * probe timeout; 503 {@code event_loop_stuck} (naming none: a probe has no token) otherwise. A
   * verticle not deployed (yet, while starting) has no loop to be stuck. Only the loops count: a
   * store that is away, or a drain, leaves the process live.
   */
  private void live(RoutingContext ctx) {
    DeliveryOptions timeout = new DeliveryOptions().setSendTimeout(PROBE_TIMEOUT_MS);
    List<Future<Boolean>> answers =
        verticleNames.stream()
            .map(
                verticle ->
                    Address.health(verticle)
                        .ask(vertx.eventBus(), new HealthProbe(true), timeout)
                        .map(HealthReport::ok)
                        .otherwise(
                            error ->
                                error instanceof ReplyException reply
                                    && reply.failureType() == ReplyFailure.NO_HANDLERS))
            .toList();
    Future.join(answers)
        .onComplete(
            all -> {
              boolean live = answers.stream().allMatch(answer -> answer.result());
              JsonObject answer = new JsonObject().put("ok", live).put("status", "live");
              JsonResponse.send(
                  ctx,
                  live ? 200 : 503,
                  live
                      ? answer
                      : answer.put("status", "not_live").put("reason", "event_loop_stuck"));
            });
  }

  /**
   * 200 {@code ready} when the node has started, is not draining, every verticle's probe is healthy,
   * the store answered the patch engine's probe within its deadline and, clustered, the cluster
   * manager counts this node among the members; else 503 {@code not_ready} with the first {@code
   * reason} that holds: {@code starting}, {@code draining}, {@code store_unavailable}, {@code
   * verticle_unhealthy}, {@code cluster_not_joined}.
   */
  private void ready(RoutingContext ctx) {
    NodePhase now = phase.get();
    if (now != NodePhase.SERVING) {
      notReady(ctx, now == NodePhase.STARTING ? "starting" : "draining");
      return;
    }
    Map<String, Future<HealthReport>> probes = probe(new HealthProbe());
    Future.join(List.copyOf(probes.values()))
        .onComplete(
            all -> {
              if (phase.get() == NodePhase.DRAINING) {
                notReady(ctx, "draining");
              } else if (!storeReport(probes).getBoolean("ok", false)) {
                // Before the verticles: a store that is away makes the patch engine unhealthy too.
                notReady(ctx, "store_unavailable");
              } else if (!probes.values().stream().allMatch(probe -> probe.result().ok())) {
                notReady(ctx, "verticle_unhealthy");
              } else if (cluster.clustered() && !cluster.members().contains(cluster.nodeId())) {
                notReady(ctx, "cluster_not_joined");
              } else {
                JsonResponse.send(
                    ctx, 200, new JsonObject().put("ok", true).put("status", "ready"));
              }
            });
  }

  private static void notReady(RoutingContext ctx, String reason) {
    JsonResponse.send(
        ctx,
        503,
        new JsonObject().put("ok", false).put("status", "not_ready").put("reason", reason));
  }

  /** The store's state as the patch engine's probe reported it. */
  private static JsonObject storeReport(Map<String, Future<HealthReport>> probes) {
    Future<HealthReport> patchEngine = probes.get("patch-engine");
    JsonObject report = patchEngine == null ? new JsonObject() : patchEngine.result().toJson();
    return report.getJsonObject(
        "store",
        new JsonObject()
            .put("ok", false)
            .put("error", "the patch engine did not report the store"));
  }

  private void health(RoutingContext ctx) {
    Map<String, Future<HealthReport>> probes = probe(new HealthProbe());
    Future.join(List.copyOf(probes.values()))
        .onComplete(
            all -> {
              JsonObject verticles = new JsonObject();
              probes.forEach((verticle, probe) -> verticles.put(verticle, probe.result().toJson()));
              JsonObject store =
                  verticles
                      .getJsonObject("patch-engine", new JsonObject())
                      .getJsonObject(
                          "store",
                          new JsonObject()
                              .put("ok", false)
                              .put("error", "the patch engine did not report the store"));
              boolean ok =
                  probes.values().stream().allMatch(probe -> probe.result().ok())
                      && store.getBoolean("ok", false);
              JsonObject answer = new JsonObject().put("ok", ok).put("status", ok ? "up" : "down");
              showsDetails(ctx)
                  .onComplete(
                      details ->
                          JsonResponse.send(
                              ctx,
                              ok ? 200 : 503,
                              details.succeeded() && details.result()
                                  ? answer
                                      .put("store", store)
                                      .put("model", defaultModel)
                                      .put("cluster", clusterDetail())
                                      .put("verticles", verticles)
                                  : answer));
            });
  }

  /**
   * This node's id and the members it sees now, in id order ({@code clustered:false}: alone, one
   * member). Membership is not health: a node that lost its peers still serves its own clients.
   */
  private JsonObject clusterDetail() {
    return new JsonObject()
        .put("clustered", cluster.clustered())
        .put("nodeId", cluster.nodeId())
        .put("members", new JsonArray(cluster.members()));
  }

  /**
   * Whether {@code /health} may show its details: the verticles' activity counters (clients, rooms,
   * commits, runs, queues) and the store's state. With auth on they are the whole server's activity,
   * so only an admin's token sees them; a probe without one gets up or down. With auth off every
   * caller is on loopback and holds the open grant.
   */
  private Future<Boolean> showsDetails(RoutingContext ctx) {
    if (tokens.isEmpty()) {
      return Future.succeededFuture(true);
    }
    List<String> headers = ctx.request().headers().getAll(HttpHeaders.AUTHORIZATION);
    Optional<String> bearer =
        headers.size() == 1 ? AccessTokens.bearerToken(headers.get(0)) : Optional.empty();
    if (bearer.isEmpty()) {
      return Future.succeededFuture(false);
    }
    return tokens.get().verify(bearer.get()).map(grant -> grant.role() == Role.ADMIN);
  }
}
