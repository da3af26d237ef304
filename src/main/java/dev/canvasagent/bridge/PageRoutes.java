package dev.canvasagent.bridge;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The reference browser client at {@code /}: the page the build makes from {@code web/} (npm and
 * Vite) into the jar's {@code webroot/}, with its scripts, styles, fonts and icons. Everything the page
 * loads comes from here. The API ({@code /api}), the bus ({@code /eventbus}) and {@code /health} are
 * never looked up here, so an unknown {@code /api} path still gets the API's JSON 404. A build that
 * skipped the page ({@code -Dweb.skip=true}) answers {@code /} with a page saying so.
 */
final class PageRoutes {
  static final String WEBROOT = "webroot";

  /** Every path but the API's, the bus's and the health probe's. */
  static final String PAGE_PATHS = "/(?!api(?:/|$)|eventbus(?:/|$)|health$).*";

  /** Vite names every asset by its content hash, so a browser may keep one as long as it likes. */
  static final String HASHED_ASSETS = "/assets/.+";

  static final long ASSET_MAX_AGE_SECONDS = 365L * 24 * 60 * 60;

  static final String NOT_BUILT =
      """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8"><title>canvas-agent: no web client in this build</title></head>
      <body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40em; margin: 3em auto">
      <h1>The web client was not built</h1>
      <p>This server was built without its browser client (<code>-Dweb.skip=true</code>), so there is no page to show.
      The API is here all the same: <a href="/health">/health</a>, <code>/api/…</code>, <code>/eventbus</code>.</p>
      <p>To get the page, build again without the flag (it needs Node.js 20.19 or newer and npm):</p>
      <pre>./mvnw -q -DskipTests package &amp;&amp; java -jar target/canvas-agent.jar</pre>
      </body></html>
      """;

  private final String webroot;

  /** {@code webroot}: the folder of the built page, on the classpath (the jar) or relative to the working directory. */
  PageRoutes(String webroot) {
    this.webroot = webroot;
  }

  void mount(Router router) {
    router
        .routeWithRegex(HASHED_ASSETS)
        .method(HttpMethod.GET)
        .method(HttpMethod.HEAD)
        .handler(
            StaticHandler.create(webroot)
                .setCachingEnabled(true)
                .setMaxAgeSeconds(ASSET_MAX_AGE_SECONDS));
    // The page itself is looked at anew each time, so a new build is picked up at once.
    router
        .routeWithRegex(PAGE_PATHS)
        .method(HttpMethod.GET)
        .method(HttpMethod.HEAD)
        .handler(
            StaticHandler.create(webroot)
                .setCachingEnabled(false)
                .setDefaultContentEncoding("UTF-8"));
    // Reached only when the static handler found no index.html: the build skipped the page.
    router
        .routeWithRegex("/(?:index\\.html)?")
        .method(HttpMethod.GET)
        .method(HttpMethod.HEAD)
        .handler(PageRoutes::notBuilt);
  }

  private static void notBuilt(RoutingContext ctx) {
    ctx.response()
        .setStatusCode(404)
        .putHeader("content-type", "text/html; charset=utf-8")
        .putHeader("cache-control", "no-store")
        .end(NOT_BUILT);
  }
}
