package dev.canvasagent.bridge;

import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.config.Loopback;
import dev.canvasagent.mcp.McpProtocol;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.CorsHandler;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The first handler of every route, WebSocket upgrades and {@code /eventbus} included. A request that
 * carries an {@code Origin} is a browser page's, and it passes only from this server's own origin (the
 * scheme, host and port it was addressed to) or from one on {@code CANVAS_AGENT_CORS_ORIGINS}; any
 * other is answered 403 {@code ORIGIN_NOT_ALLOWED}. Browsers apply no CORS to WebSockets, and with
 * auth off on loopback this is what keeps any website from driving the local agent. Requests without
 * an {@code Origin} (curl, servers) pass. The listed origins get CORS answers from vertx-web's {@link
 * CorsHandler}; with no list there is no CORS handler at all, never a wildcard.
 */
final class OriginGuard implements Handler<RoutingContext> {
  static final Set<HttpMethod> METHODS =
      Set.of(
          HttpMethod.GET,
          HttpMethod.POST,
          HttpMethod.PUT,
          HttpMethod.PATCH,
          HttpMethod.DELETE,
          HttpMethod.OPTIONS);
  static final Set<String> REQUEST_HEADERS =
      Set.of(
          "Authorization",
          "Content-Type",
          IdempotencyKeyHeader.NAME,
          "Last-Event-ID",
          McpProtocol.SESSION_HEADER,
          McpProtocol.VERSION_HEADER);

  /** A cross-origin page can read {@code Retry-After} only when it is exposed. */
  static final Set<String> EXPOSED_HEADERS =
      Set.of(EdgeLimits.RETRY_AFTER, McpProtocol.SESSION_HEADER);

  static final int PREFLIGHT_MAX_AGE_SECONDS = 600;

  /** As browsers write them: lower case, without a default port. */
  private final Set<String> allowed;

  private final Optional<CorsHandler> cors;
  private final boolean loopbackHostsOnly;

  /** A scheme, host and port, compared as browsers compare origins. */
  record Origin(String scheme, String host, int port) {
    static Optional<Origin> parse(String text) {
      try {
        URI uri = new URI(text);
        String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!("http".equals(scheme) || "https".equals(scheme))
            || uri.getHost() == null
            || uri.getRawPath() != null && !uri.getRawPath().isEmpty()
            || uri.getRawQuery() != null
            || uri.getRawUserInfo() != null) {
          return Optional.empty();
        }
        return Optional.of(of(scheme, uri.getHost(), uri.getPort()));
      } catch (URISyntaxException notAnOrigin) {
        return Optional.empty();
      }
    }

    static Origin of(String scheme, String host, int port) {
      String bare =
          host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
      return new Origin(
          scheme, bare.toLowerCase(Locale.ROOT), port >= 0 ? port : defaultPort(scheme));
    }

    /** The origin as a browser sends it in {@code Origin}. */
    String serialized() {
      return scheme
          + "://"
          + (host.contains(":") ? "[" + host + "]" : host)
          + (port == defaultPort(scheme) ? "" : ":" + port);
    }

    private static int defaultPort(String scheme) {
      return "https".equals(scheme) ? 443 : 80;
    }
  }

  /**
   * {@code allowedOrigins}: validated {@code scheme://host[:port]} from the configuration.
   * {@code loopbackHostsOnly}: auth is off, so only requests addressed to a loopback name are served.
   * A website whose DNS name is rebound to 127.0.0.1 is its own origin to the browser; its requests
   * name its host, and that is how they are told apart.
   */
  OriginGuard(List<String> allowedOrigins, boolean loopbackHostsOnly) {
    this.loopbackHostsOnly = loopbackHostsOnly;
    this.allowed =
        allowedOrigins.stream()
            .map(
                origin ->
                    Origin.parse(origin)
                        .orElseThrow(() -> new IllegalArgumentException("not an origin: " + origin))
                        .serialized())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
    this.cors =
        allowed.isEmpty()
            ? Optional.empty()
            : Optional.of(
                CorsHandler.create()
                    .addOrigins(List.copyOf(allowed))
                    .allowedMethods(METHODS)
                    .allowedHeaders(REQUEST_HEADERS)
                    .exposedHeaders(EXPOSED_HEADERS)
                    .maxAgeSeconds(PREFLIGHT_MAX_AGE_SECONDS));
  }

  @Override
  public void handle(RoutingContext ctx) {
    HostAndPort authority = ctx.request().authority();
    // A request without a Host (HTTP/1.0 allows it) names no host to check: with auth off it is
    // refused like one that names another host, or it would be the one way past this check.
    if (loopbackHostsOnly && (authority == null || !Loopback.isLoopback(authority.host()))) {
      HttpErrors.send(
          ctx,
          FailureCode.HOST_NOT_ALLOWED,
          (authority == null ? "the request has no Host header; " : "")
              + "with auth off this server answers only requests addressed to localhost, 127.0.0.1 or ::1;"
              + " set CANVAS_AGENT_JWT_SECRET to serve other names");
      return;
    }
    String header = ctx.request().getHeader(HttpHeaders.ORIGIN);
    if (header == null) {
      ctx.next();
      return;
    }
    Optional<Origin> origin = Origin.parse(header);
    if (allowed.contains(header)) {
      cors.orElseThrow().handle(ctx);
    } else if (origin.isPresent() && origin.get().equals(own(ctx))) {
      ctx.next();
    } else {
      HttpErrors.send(
          ctx,
          FailureCode.ORIGIN_NOT_ALLOWED,
          "pages from "
              + (header.length() > 100 ? header.substring(0, 100) + "…" : header)
              + " may not call this server; its own origin and CANVAS_AGENT_CORS_ORIGINS may");
    }
  }

  /** The origin the request was addressed to: its scheme and its {@code Host}. */
  private static Origin own(RoutingContext ctx) {
    HostAndPort authority = ctx.request().authority();
    return authority == null
        ? null
        : Origin.of(ctx.request().scheme(), authority.host(), authority.port());
  }
}
