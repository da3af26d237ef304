package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.metrics.CanvasMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /metrics}: this node's meters in Prometheus's text format (Vert.x's own and the domain's,
 * {@link CanvasMetrics}). On the main port, for an admin's token: the project already has that role
 * and its checks, while a management port would be a second listener to bind, firewall and keep out
 * of reach with no token at all. With auth off the server is on loopback only and everyone there
 * holds the open grant, as for every route. Outside {@code /api} like {@code /health}, so a scrape is
 * not counted against a client's request allowance.
 */
final class MetricsRoute {
  static final String PATH = "/metrics";
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Vertx vertx;
  private final EdgeAccess access;

  MetricsRoute(Vertx vertx, EdgeAccess access) {
    this.vertx = vertx;
    this.access = access;
  }

  void mount(Router router) {
    router.get(PATH).handler(access::authenticate).handler(this::scrape);
  }

  private void scrape(RoutingContext ctx) {
    if (EdgeAccess.grant(ctx).role() != Role.ADMIN) {
      HttpErrors.send(
          ctx,
          FailureCode.FORBIDDEN,
          "the metrics need the admin role; this token is "
              + EdgeAccess.grant(ctx).role().wireName());
      return;
    }
    CanvasMetrics meters = CanvasMetrics.of(vertx);
    // Writing out every series is CPU work that grows with the registry: off the event loop.
    vertx
        .executeBlocking(meters::scrape, false)
        .onSuccess(
            text ->
                ctx.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE)
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                    .end(text))
        .onFailure(ctx::fail);
  }
}
