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
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /health}: up (200) or down (503) from every verticle's health probe and the store's. A load
 * balancer's probe carries no token, so the route is outside {@code /api}; with auth on, the details
 * behind the answer are an admin's to see ({@link #showsDetails}).
 */
final class HealthRoute {
  static final long PROBE_TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final List<String> verticleNames;
  private final Optional<AccessTokens> tokens;
  private final String defaultModel;
  private final ClusterView cluster;

  /**
   * {@code verticleNames}: the verticles whose health it reports, the bridge included; {@code tokens}:
   * the token verifier, empty when auth is off; {@code defaultModel} and {@code cluster} (this node and
   * the members it sees): shown in the details.
   */
  HealthRoute(
      Vertx vertx,
      List<String> verticleNames,
      Optional<AccessTokens> tokens,
      String defaultModel,
      ClusterView cluster) {
    this.vertx = vertx;
    this.verticleNames = List.copyOf(verticleNames);
    this.tokens = tokens;
    this.defaultModel = defaultModel;
    this.cluster = cluster;
  }

  void mount(Router router) {
    router.get("/health").handler(this::health);
  }

  private void health(RoutingContext ctx) {
    Map<String, Future<HealthReport>> probes = new LinkedHashMap<>();
    DeliveryOptions timeout = new DeliveryOptions().setSendTimeout(PROBE_TIMEOUT_MS);
    for (String verticle : verticleNames) {
      probes.put(
          verticle,
          Address.health(verticle)
              .ask(vertx.eventBus(), new HealthProbe(), timeout)
              .otherwise(error -> HealthReport.failed(String.valueOf(error.getMessage()))));
    }
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
