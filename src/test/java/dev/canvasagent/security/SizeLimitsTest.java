package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a client sends is bounded on every route and transport: request line, headers, bodies,
 * WebSocket frames and messages, SockJS messages. Over a bound the request is refused (413 with {@code
 * BODY_TOO_LARGE} naming the bound, 414, 431) or the socket closed with 1009, and nothing changes.
 */
@ExtendWith(VertxExtension.class)
class SizeLimitsTest {
  static final int MAX_MESSAGE_BYTES = 4096;

  Vertx vertx;
  TestServer server;
  String roomId;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    roomId = "sizes-" + UUID.randomUUID().toString().substring(0, 8);
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_MAX_MESSAGE_BYTES",
                    String.valueOf(MAX_MESSAGE_BYTES),
                    "CANVAS_AGENT_BODY_LIMIT_BYTES",
                    "8192")));
  }

  @AfterEach
  void tearDown() {
    Await.result(server.stop());
  }

  long revision() {
    return server.board(roomId).getLong("revision");
  }

  static JsonObject change(long baseRevision, String text) {
    return new JsonObject()
        .put("baseRevision", baseRevision)
        .put(
            "put",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("id", "shape:big")
                        .put("typeName", "shape")
                        .put("type", "text")
                        .put("x", 0)
                        .put("y", 0)
                        .put("props", new JsonObject().put("text", text))));
  }

  @Test
  void aPersonsChangeOverTheBodyLimitIs413AndChangesNothing() {
    long before = revision();
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + roomId + "/changes")
                .putHeader("content-type", "application/json")
                .sendJsonObject(change(before, "x".repeat(9_000))));
    assertEquals(413, response.statusCode(), response.bodyAsString());
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertEquals("BODY_TOO_LARGE", error.getString("code"));
    assertTrue(error.getString("message").contains("8192"), error.encode());
    assertEquals(before, revision());
  }

  @Test
  void aSockJSMessageOverTheLimitIs413NamingIt() {
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .post("/eventbus/000/" + UUID.randomUUID() + "/xhr_send")
                .sendBuffer(Buffer.buffer("[\"" + "x".repeat(MAX_MESSAGE_BYTES) + "\"]")));
    assertEquals(413, response.statusCode(), response.bodyAsString());
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertEquals("BODY_TOO_LARGE", error.getString("code"));
    assertTrue(
        error
            .getString("message")
            .contains(MAX_MESSAGE_BYTES + " bytes (CANVAS_AGENT_MAX_MESSAGE_BYTES)"),
        error.encode());
  }

  @Test
  void aWebSocketMessageOverTheLimitClosesWith1009AndChangesNothing() {
    long before = revision();
    WsClient big = Await.result(WsClient.connect(vertx, server.port(), roomId));
    big.send("canvas:change", change(before, "x".repeat(MAX_MESSAGE_BYTES)));
    assertEquals(1009, Await.result(big.closed()).intValue());
    assertEquals(before, revision());
  }

  @Test
  void aSingleWebSocketFrameOverTheLimitClosesWith1009() {
    // The server's frame limit is min(CANVAS_AGENT_MAX_MESSAGE_BYTES, 64 KiB): a frame over it is
    // corrupt to Netty.
    assertEquals(
        1009,
        closeStatusAfter(
            "/api/rooms/" + roomId + "/ws",
            WebSocketFrame.textFrame("x".repeat(MAX_MESSAGE_BYTES + 1), true)));
  }

  @Test
  void aSockJSMessageOverTheLimitOnTheWebSocketTransportClosesTheConnectionAndChangesNothing() {
    long before = revision();
    try (SockJSBrowsers browsers = SockJSBrowsers.start()) {
      SockJSBrowsers.Browser page = browsers.open("page", server.port(), "websocket");
      page.register("room." + roomId + ".canvas:host");
      page.awaitMessage(
          "room." + roomId + ".canvas:host",
          hello -> "canvas:hello".equals(hello.getString("type")),
          "its hello");
      page.publish(
          "room." + roomId + ".canvas:change", change(before, "x".repeat(MAX_MESSAGE_BYTES)));
      JsonObject closed =
          page.await(event -> "closed".equals(event.getString("event")), "the connection to close");
      // SockJS owns that WebSocket: Vert.x drops the connection (1006) without a close frame of
      // ours.
      assertTrue(closed.getInteger("code") >= 1000, closed.encode());
    }
    assertEquals(before, revision());
  }

  /** Opens a raw WebSocket, sends one frame, and answers the status it is closed with. */
  short closeStatusAfter(String path, WebSocketFrame frame) {
    Promise<Short> closed = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(
            onContext ->
                vertx
                    .createWebSocketClient(
                        new io.vertx.core.http.WebSocketClientOptions()
                            .setMaxFrameSize(4 * MAX_MESSAGE_BYTES))
                    .connect(
                        new WebSocketConnectOptions()
                            .setHost("127.0.0.1")
                            .setPort(server.port())
                            .setURI(path))
                    .onFailure(closed::tryFail)
                    .onSuccess(
                        (WebSocket socket) -> {
                          socket.closeHandler(end -> closed.tryComplete(socket.closeStatusCode()));
                          socket.writeFrame(frame);
                        }));
    return Await.result(closed.future());
  }

  @Test
  void anOverlongRequestLineIs414AndOverlargeHeadersAre431() {
    // The server closes a connection after refusing its request line or headers; a pooled client
    // could send the next request into that closing connection. One connection per request here.
    WebClient oneShot =
        WebClient.create(
            vertx,
            new WebClientOptions()
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(server.port())
                .setKeepAlive(false));
    try {
      HttpResponse<Buffer> longUrl =
          Await.result(
              oneShot.get("/api/rooms/" + roomId + "/board?pad=" + "x".repeat(9_000)).send());
      assertEquals(414, longUrl.statusCode());
      HttpResponse<Buffer> bigHeaders =
          Await.result(
              oneShot
                  .get("/api/rooms/" + roomId + "/board")
                  .putHeader("X-Pad", "x".repeat(17_000))
                  .send());
      assertEquals(431, bigHeaders.statusCode());
      assertEquals(
          200,
          Await.result(oneShot.get("/api/rooms/" + roomId + "/board").send()).statusCode(),
          "the server still serves");
    } finally {
      oneShot.close();
    }
  }

  @Test
  void aLastEventIdThatIsNotOneIsResyncedNotParsedFurther() {
    SseClient stream =
        Await.result(
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + roomId + "/events",
                Map.of("Last-Event-ID", "x".repeat(10_000))));
    Await.result(stream.awaitEvent(event -> "canvas:resync".equals(event.event())));
    Await.result(stream.close());
  }
}
