package dev.canvasagent.bridge;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.IdentityHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every connection the HTTP server accepts, from accept to close ({@code server.connectionHandler}). One
 * over its address's cap ({@link AppConfig.Limits#tcpConnectionsPerAddress}) is closed at once: there is
 * no request to answer yet. The others are held to their {@link RequestDeadlines}; the idle timeout is
 * the server's own ({@code HttpServerOptions.setIdleTimeout}). Refusals and missed deadlines are logged
 * by {@link ThrottledWarning}, so a flood of them does not flood the log. Lives on the bridge's event
 * loop, which accepts every connection of the bridge's one server.
 */
final class ConnectionGate {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGate.class);

  private final Vertx vertx;
  private final AppConfig.Http http;
  private final ConnectionsPerAddress addresses;
  private final Map<HttpConnection, RequestDeadlines> open = new IdentityHashMap<>();
  private final ThrottledWarning refused = new ThrottledWarning(LOG, "http.connection_refused");
  private final ThrottledWarning lateHeads = new ThrottledWarning(LOG, "http.head_timeout");
  private final ThrottledWarning lateBodies = new ThrottledWarning(LOG, "http.body_timeout");
  private final RequestDeadlines.Missed missed =
      new RequestDeadlines.Missed() {
        @Override
        public void head(String address) {
          lateHeads.record(
              address, "no complete request head within " + http.headTimeoutMs() + " ms");
        }

        @Override
        public void body(String address) {
          lateBodies.record(
              address,
              "no complete request body within " + http.bodyTimeoutMs() + " ms of its head");
        }
      };

  ConnectionGate(Vertx vertx, AppConfig.Http http, AppConfig.Limits limits) {
    this.vertx = vertx;
    this.http = http;
    this.addresses = new ConnectionsPerAddress(limits.tcpConnectionsPerAddress());
  }

  /** A connection was accepted: counted and given its first head deadline, or closed over the cap. */
  void accept(HttpConnection connection) {
    String address = EdgeLimits.address(connection.remoteAddress());
    if (!addresses.tryOpen(address)) {
      refused.record(address, "over CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS");
      CanvasMetrics.of(vertx).rateLimited("tcp_connections_per_address");
      connection.close();
      return;
    }
    RequestDeadlines deadlines =
        new RequestDeadlines(
            vertx, connection, address, http.headTimeoutMs(), http.bodyTimeoutMs(), missed);
    open.put(connection, deadlines);
    closeOf(connection)
        .onComplete(
            closed -> {
              deadlines.closed();
              open.remove(connection);
              addresses.closed(address);
            });
    deadlines.awaitHead();
  }

  /** The first route of every request: its head is complete. */
  void headArrived(RoutingContext ctx) {
    RequestDeadlines deadlines = open.get(ctx.request().connection());
    if (deadlines != null) {
      deadlines.headArrived(ctx);
    }
    ctx.next();
  }

  /** How many connections are open, and from how many addresses. */
  JsonObject counts() {
    return new JsonObject().put("open", addresses.open()).put("addresses", addresses.addresses());
  }

  /**
   * Completes when the connection closes, whatever it has become. Vert.x 5.0 calls {@link
   * HttpConnection#closeHandler} only while the connection speaks HTTP: one upgraded to a WebSocket gets
   * a new channel handler, and its close goes unreported, which would keep its slot taken forever. The
   * connection's close future follows the channel itself, upgraded or not; it is not public API, so
   * another kind of connection falls back to the close handler.
   */
  private static Future<Void> closeOf(HttpConnection connection) {
    if (connection instanceof io.vertx.core.net.impl.ConnectionBase base) {
      return base.closeFuture();
    }
    Promise<Void> closed = Promise.promise();
    connection.closeHandler(end -> closed.tryComplete());
    return closed.future();
  }
}
