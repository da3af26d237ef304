package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WebBuild;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The browser client is served at / with its assets, from the classpath the jar carries, and nothing
 * of the API changes: unknown /api paths keep their JSON 404, /health and the bus their own routes. A
 * build without the page says so at /.
 */
@ExtendWith(VertxExtension.class)
class PageRoutesTest {
  Vertx vertx;
  TestServer server;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, Optional.empty());
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
    Await.result(vertx.close());
  }

  @Test
  void theRootServesThePageAndItsHashedAssets() {
    WebBuild.require();
    HttpResponse<Buffer> page = server.get("/");
    assertEquals(200, page.statusCode());
    assertTrue(
        page.getHeader("content-type").startsWith("text/html"), page.getHeader("content-type"));
    String html = page.bodyAsString();
    assertTrue(html.contains("<div id=\"root\">"), html);

    Matcher script = Pattern.compile("src=\"\\./(assets/[^\"]+\\.js)\"").matcher(html);
    assertTrue(script.find(), "the page names its script: " + html);
    HttpResponse<Buffer> asset = server.get("/" + script.group(1));
    assertEquals(200, asset.statusCode());
    assertTrue(
        asset.getHeader("content-type").contains("javascript"), asset.getHeader("content-type"));
    assertTrue(
        asset.getHeader("cache-control").contains("max-age=" + PageRoutes.ASSET_MAX_AGE_SECONDS),
        asset.getHeader("cache-control"));
    assertEquals(200, server.get("/index.html").statusCode());
  }

  @Test
  void theApiAndTheBusKeepTheirOwnAnswers() {
    HttpResponse<Buffer> unknown = server.get("/api/no-such-route");
    assertEquals(404, unknown.statusCode());
    assertEquals("NOT_FOUND", unknown.bodyAsJsonObject().getJsonObject("error").getString("code"));
    HttpResponse<Buffer> assetsUnderApi = server.get("/api/assets/index.js");
    assertEquals(404, assetsUnderApi.statusCode());
    assertEquals(
        "NOT_FOUND", assetsUnderApi.bodyAsJsonObject().getJsonObject("error").getString("code"));
    assertEquals(200, server.get("/health").statusCode());
    assertEquals(
        new JsonObject()
            .put("ok", true)
            .put("roomId", "page")
            .put("revision", 0L)
            .put("records", new io.vertx.core.json.JsonArray()),
        server.board("page"));
    // SockJS's info route, as the official client asks it first.
    HttpResponse<Buffer> info = server.get("/eventbus/info");
    assertEquals(200, info.statusCode());
    assertTrue(info.bodyAsJsonObject().containsKey("websocket"), info.bodyAsString());
    // A path that is neither the page, an asset nor the API is the API's JSON 404 too.
    HttpResponse<Buffer> missing = server.get("/no-such-file.js");
    assertEquals(404, missing.statusCode());
    assertEquals("NOT_FOUND", missing.bodyAsJsonObject().getJsonObject("error").getString("code"));
  }

  @Test
  void aBuildWithoutThePageSaysSoAtTheRoot() {
    Router router = Router.router(vertx);
    new PageRoutes("no-such-webroot").mount(router);
    HttpServer http =
        Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    WebClient client = WebClient.create(vertx);
    try {
      HttpResponse<Buffer> root =
          Await.result(client.get(http.actualPort(), "127.0.0.1", "/").send());
      assertEquals(404, root.statusCode());
      assertTrue(
          root.getHeader("content-type").startsWith("text/html"), root.getHeader("content-type"));
      assertTrue(root.bodyAsString().contains("The web client was not built"), root.bodyAsString());
      assertTrue(root.bodyAsString().contains("-Dweb.skip=true"), root.bodyAsString());
    } finally {
      client.close();
      Await.result(http.close());
    }
  }
}
