package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Browser pages: from the server's own origin or one on {@code CANVAS_AGENT_CORS_ORIGINS} they may
 * call every route; from any other, no route answers them (403 {@code ORIGIN_NOT_ALLOWED}), the
 * WebSocket and {@code /eventbus} included, and nothing changes. Requests without an {@code Origin}
 * pass. With no list there is no CORS at all, never a wildcard.
 */
@ExtendWith(VertxExtension.class)
class OriginsTest {
  static final String APP = "http://app.example:3000";
  static final String EVIL = "https://evil.example";

  Vertx vertx;
  TestServer server;
  String roomId;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    roomId = "origins-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void tearDown() {
    Await.result(server.stop());
  }

  void start(String corsOrigins) {
    server =
        TestServer.start(
            vertx, TestServer.config(Map.of("CANVAS_AGENT_CORS_ORIGINS", corsOrigins)));
  }

  String own() {
    return "http://127.0.0.1:" + server.port();
  }

  HttpResponse<Buffer> send(HttpMethod method, String path, Map<String, String> headers) {
    HttpRequest<Buffer> request = server.http().request(method, path);
    headers.forEach(request::putHeader);
    return Await.result(request.send());
  }

  HttpResponse<Buffer> get(String path, String origin) {
    return send(HttpMethod.GET, path, origin == null ? Map.of() : Map.of("Origin", origin));
  }

  static void assertForeign(HttpResponse<Buffer> response) {
    assertEquals(403, response.statusCode(), response.bodyAsString());
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertEquals("ORIGIN_NOT_ALLOWED", error.getString("code"));
    assertTrue(error.getString("message").contains("CANVAS_AGENT_CORS_ORIGINS"), error.encode());
    assertNull(response.getHeader("Access-Control-Allow-Origin"));
  }

  int sessions() {
    return get("/api/sessions?roomId=" + roomId, null)
        .bodyAsJsonObject()
        .getJsonArray("sessions")
        .size();
  }

  @Test
  void withoutAListOnlyTheServersOwnPagesAndNonBrowsersGetIn() {
    start("");
    HttpResponse<Buffer> same = get("/api/catalog", own());
    assertEquals(200, same.statusCode(), same.bodyAsString());
    assertNull(
        same.getHeader("Access-Control-Allow-Origin"), "no CORS without a list, and never *");
    assertEquals(200, get("/api/catalog", null).statusCode(), "curl sends no Origin");
    HttpResponse<Buffer> byName =
        Await.result(
            server
                .http()
                .get("/api/catalog")
                .virtualHost("localhost")
                .putHeader("Origin", "http://localhost:" + server.port())
                .send());
    assertEquals(
        200,
        byName.statusCode(),
        "the origin the server was addressed by: " + byName.bodyAsString());

    for (String path :
        List.of(
            "/api/catalog",
            "/health",
            "/eventbus/info",
            "/api/rooms/" + roomId + "/events",
            "/no/such/route")) {
      assertForeign(get(path, EVIL));
    }
    assertForeign(get("/api/catalog", "null"));
    assertForeign(
        get("/api/catalog", "http://127.0.0.1:" + (server.port() == 1 ? 2 : server.port() - 1)));
    assertForeign(get("/api/catalog", "https://127.0.0.1:" + server.port()));
    assertForeign(
        send(
            HttpMethod.OPTIONS,
            "/api/canvas-agent/run",
            Map.of("Origin", EVIL, "Access-Control-Request-Method", "POST")));

    HttpResponse<Buffer> run =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("Origin", EVIL)
                .sendJsonObject(
                    new JsonObject().put("roomId", roomId).put("message", "draw a box")));
    assertForeign(run);
    assertEquals(0, sessions(), "a foreign page started nothing");
  }

  /**
   * A website whose name is rebound to 127.0.0.1 is same-origin to the browser, so Origin alone cannot
   * tell it apart; with auth off its requests name a host that is not loopback, and are refused.
   */
  @Test
  void withAuthOffOnlyRequestsAddressedToLoopbackNamesAreServed() {
    start("");
    for (String path : List.of("/api/catalog", "/health", "/api/rooms/" + roomId + "/board", "/")) {
      HttpResponse<Buffer> rebound =
          Await.result(
              server
                  .http()
                  .get(path)
                  .virtualHost("rebound.example")
                  .putHeader("Origin", "http://rebound.example:" + server.port())
                  .send());
      assertEquals(403, rebound.statusCode(), path + ": " + rebound.bodyAsString());
      assertEquals(
          "HOST_NOT_ALLOWED", rebound.bodyAsJsonObject().getJsonObject("error").getString("code"));
    }
    HttpResponse<Buffer> run =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .virtualHost("rebound.example")
                .sendJsonObject(
                    new JsonObject().put("roomId", roomId).put("message", "draw a box")));
    assertEquals(403, run.statusCode());
    assertEquals(
        0,
        server
            .get("/api/sessions?roomId=" + roomId)
            .bodyAsJsonObject()
            .getJsonArray("sessions")
            .size(),
        "the refused run made no session");
    for (String name : List.of("localhost", "127.0.0.1", "127.0.0.2", "[::1]")) {
      HttpResponse<Buffer> loopback =
          Await.result(server.http().get("/api/catalog").virtualHost(name).send());
      assertEquals(200, loopback.statusCode(), name);
    }
  }

  /** HTTP/1.0 lets a request name no host; with auth off that must not be the way past the host check. */
  @Test
  void withAuthOffARequestWithoutAHostIsRefused() {
    start("");
    for (String request :
        List.of(
            "GET /api/catalog HTTP/1.0\r\n\r\n",
            "GET /health HTTP/1.0\r\n\r\n",
            "GET /api/rooms/" + roomId + "/board HTTP/1.0\r\nAccept: application/json\r\n\r\n")) {
      String answer = rawExchange(request);
      assertTrue(
          answer.startsWith("HTTP/1.0 403") || answer.startsWith("HTTP/1.1 403"),
          request + " → " + answer);
      assertTrue(answer.contains("HOST_NOT_ALLOWED") && answer.contains("no Host header"), answer);
    }
    assertTrue(
        rawExchange("GET /api/catalog HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").contains(" 200 "),
        "with a loopback Host it is served");
  }

  @Test
  void withAuthOnARequestWithoutAHostIsAnsweredLikeAnyOther() {
    server =
        TestServer.start(vertx, TestServer.config(dev.canvasagent.support.TestTokens.ENVIRONMENT));
    String answer = rawExchange("GET /health HTTP/1.0\r\n\r\n");
    assertTrue(answer.contains(" 200 "), answer);
  }

  /** One request on a connection of its own, and everything the server wrote until it closed it. */
  String rawExchange(String request) {
    io.vertx.core.net.NetSocket socket =
        Await.result(vertx.createNetClient().connect(server.port(), "127.0.0.1"));
    Buffer received = Buffer.buffer();
    io.vertx.core.Promise<String> closed = io.vertx.core.Promise.promise();
    socket.handler(received::appendBuffer);
    socket.closeHandler(end -> closed.complete(received.toString()));
    Await.result(socket.write(request));
    return Await.result(closed.future());
  }

  @Test
  void withAuthOnAnyHostNameIsServed() {
    server =
        TestServer.start(vertx, TestServer.config(dev.canvasagent.support.TestTokens.ENVIRONMENT));
    HttpResponse<Buffer> named =
        Await.result(server.http().get("/health").virtualHost("canvas.example").send());
    assertEquals(200, named.statusCode(), named.bodyAsString());
  }

  @Test
  void aForeignPageCannotOpenTheWebSocketOrTheEventBus() {
    start("");
    for (String path :
        List.of(
            "/api/rooms/" + roomId + "/ws",
            "/eventbus/websocket",
            "/eventbus/000/" + UUID.randomUUID() + "/websocket")) {
      Throwable refused = Await.failure(webSocket(path, EVIL));
      assertEquals(403, ((UpgradeRejectedException) refused).getStatus(), path);
    }
    WebSocket same = Await.result(webSocket("/api/rooms/" + roomId + "/ws", own()));
    Await.result(same.close());
  }

  @Test
  void aListedOriginGetsCorsAndItsPreflightsAnOtherDoesNot() {
    start(APP + ", https://Second.Example");
    HttpResponse<Buffer> listed = get("/api/catalog", APP);
    assertEquals(200, listed.statusCode(), listed.bodyAsString());
    assertEquals(APP, listed.getHeader("Access-Control-Allow-Origin"));
    assertTrue(listed.getHeader("Access-Control-Expose-Headers").contains("Retry-After"));
    assertEquals(
        "https://second.example",
        get("/api/catalog", "https://second.example").getHeader("Access-Control-Allow-Origin"));

    HttpResponse<Buffer> preflight =
        send(
            HttpMethod.OPTIONS,
            "/api/canvas-agent/run",
            Map.of(
                "Origin",
                APP,
                "Access-Control-Request-Method",
                "POST",
                "Access-Control-Request-Headers",
                "authorization,content-type,idempotency-key"));
    assertEquals(204, preflight.statusCode(), preflight.bodyAsString());
    assertEquals(APP, preflight.getHeader("Access-Control-Allow-Origin"));
    assertTrue(preflight.getHeader("Access-Control-Allow-Methods").contains("POST"));
    for (String header :
        List.of("Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID")) {
      assertTrue(
          preflight.getHeader("Access-Control-Allow-Headers").contains(header),
          preflight.headers().toString());
    }
    assertNull(
        preflight.getHeader("Access-Control-Allow-Credentials"),
        "tokens travel in headers, not cookies");

    assertForeign(
        send(
            HttpMethod.OPTIONS,
            "/api/canvas-agent/run",
            Map.of("Origin", EVIL, "Access-Control-Request-Method", "POST")));
    assertForeign(get("/api/catalog", EVIL));
    assertEquals(
        200, get("/api/catalog", own()).statusCode(), "the server's own pages need no listing");

    HttpResponse<Buffer> run =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("Origin", APP)
                .sendJsonObject(
                    new JsonObject().put("roomId", roomId).put("message", "draw a box")));
    assertEquals(202, run.statusCode(), run.bodyAsString());
    assertEquals(APP, run.getHeader("Access-Control-Allow-Origin"));
    WebSocket listedSocket = Await.result(webSocket("/api/rooms/" + roomId + "/ws", APP));
    Await.result(listedSocket.close());
  }

  io.vertx.core.Future<WebSocket> webSocket(String path, String origin) {
    return vertx
        .createWebSocketClient()
        .connect(
            new WebSocketConnectOptions()
                .setHost("127.0.0.1")
                .setPort(server.port())
                .setURI(path)
                .addHeader("Origin", origin));
  }
}
