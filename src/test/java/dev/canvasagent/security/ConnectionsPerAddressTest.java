package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.RawConnection;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS}: every connection counts, whatever it carries (a
 * request, an event stream, a WebSocket, nothing yet), from the moment it is accepted to the moment it
 * closes. One over the cap is closed at once, before a byte is read; other addresses are served as
 * before. The head deadline is long here, so connections that send nothing stay until the test closes
 * them. 127.0.0.2 is a second address (Linux routes all of 127/8 to loopback).
 */
@ExtendWith(VertxExtension.class)
class ConnectionsPerAddressTest {
  static final String ELSEWHERE = "127.0.0.2";

  Vertx vertx;
  TestServer server;
  NetClient here;
  final List<RawConnection> raw = java.util.Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    here = RawConnection.client(vertx, "127.0.0.1");
  }

  @AfterEach
  void tearDown() {
    raw.forEach(RawConnection::close);
    Await.result(here.close());
    if (server != null) {
      Await.result(server.stop());
    }
  }

  void start(int cap) {
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS", String.valueOf(cap),
                    "CANVAS_AGENT_CONNECTIONS_PER_ADDRESS", String.valueOf(cap),
                    "CANVAS_AGENT_HEAD_TIMEOUT_MS", "60000")));
  }

  RawConnection open() {
    RawConnection connection = Await.result(RawConnection.open(vertx, here, server.port()));
    raw.add(connection);
    return connection;
  }

  /** A new connection from 127.0.0.1 asks for /health: true when it was answered 200. */
  Future<Boolean> answeredHere() {
    return RawConnection.open(vertx, here, server.port())
        .compose(
            connection -> {
              raw.add(connection);
              connection.write(
                  "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
              return connection
                  .closed()
                  .map(closed -> connection.received().startsWith("HTTP/1.1 200"));
            });
  }

  /** The bridge's own count of open connections and of the addresses they come from, asked over the bus. */
  Future<JsonObject> counted() {
    return vertx
        .eventBus()
        .<JsonObject>request(Address.health("bridge").address(), new JsonObject())
        .map(reply -> reply.body().getJsonObject("connections"));
  }

  @Test
  void aConnectionOverTheCapIsClosedAtOnceWhileAnotherAddressIsServed() {
    start(3);
    RawConnection first = open();
    open();
    open();
    RawConnection over = open();
    Await.result(over.closed());
    assertEquals("", over.received(), "closed before any answer");

    WebClient fromElsewhere =
        WebClient.create(vertx, new WebClientOptions().setLocalAddress(ELSEWHERE));
    try {
      HttpResponse<Buffer> health =
          Await.result(fromElsewhere.get(server.port(), "127.0.0.1", "/health").send());
      assertEquals(200, health.statusCode(), health.bodyAsString());
    } finally {
      fromElsewhere.close();
    }

    // A closed connection gives its slot back.
    Await.result(first.close());
    Await.result(Eventually.holds(vertx, this::answeredHere));
  }

  @Test
  void streamsAreConnectionsTooAndAClosedWebSocketGivesItsSlotBack() {
    start(3);
    String roomId = "cap-" + UUID.randomUUID().toString().substring(0, 8);
    SseClient sse = server.events(roomId);
    WsClient ws = Await.result(WsClient.connect(vertx, server.port(), roomId));
    open();
    RawConnection over = open();
    Await.result(over.closed());
    assertEquals("", over.received());

    // Vert.x reports no close for a connection upgraded to a WebSocket: the bridge must see it
    // anyway.
    Await.result(ws.close());
    Await.result(Eventually.holds(vertx, this::answeredHere));
    Await.result(sse.close());
  }

  @Test
  void everySlotAndEveryAddressIsForgottenOnceItsConnectionsClose() {
    start(50);
    String roomId = "forget-" + UUID.randomUUID().toString().substring(0, 8);
    NetClient elsewhere = RawConnection.client(vertx, ELSEWHERE);
    try (SockJSBrowsers browsers = SockJSBrowsers.start()) {
      SseClient sse = server.events(roomId);
      WsClient ws = Await.result(WsClient.connect(vertx, server.port(), roomId));
      for (String transport : List.of("websocket", "xhr-streaming")) {
        SockJSBrowsers.Browser page = browsers.open(transport, server.port(), transport);
        page.register("room." + roomId + ".canvas:host");
        page.awaitMessage(
            "room." + roomId + ".canvas:host",
            hello -> "canvas:hello".equals(hello.getString("type")),
            "its hello");
      }
      open();
      Await.result(RawConnection.open(vertx, elsewhere, server.port()));
      Await.result(
          Eventually.holds(
              vertx, () -> counted().map(counts -> counts.getInteger("addresses") == 2)));
      JsonObject open = Await.result(counted());
      assertTrue(open.getInteger("open") >= 5, open.encode());
      Await.result(sse.close());
      Await.result(ws.close());
      raw.forEach(RawConnection::close);
    } finally {
      // The Node browsers' process has ended, and with it every connection it held.
      Await.result(elsewhere.close());
    }
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                counted()
                    .map(
                        counts ->
                            counts.equals(new JsonObject().put("open", 0).put("addresses", 0)))));
  }

  @Test
  void refusalsAreLoggedWithoutFloodingTheLog() {
    start(1);
    try (LogCapture log = LogCapture.open()) {
      open();
      for (int i = 0; i < 20; i++) {
        Await.result(open().closed());
      }
      long warnings =
          log.text()
              .lines()
              .filter(line -> line.startsWith("WARN") && line.contains("http.connection_refused"))
              .count();
      long all =
          log.text().lines().filter(line -> line.contains("http.connection_refused")).count();
      assertTrue(
          warnings >= 1 && warnings <= 2, warnings + " warnings for 20 refusals:\n" + log.text());
      assertEquals(20, all, "each refusal is one line, the rest at DEBUG:\n" + log.text());
    }
  }
}
