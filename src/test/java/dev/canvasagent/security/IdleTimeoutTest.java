package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.RawConnection;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code CANVAS_AGENT_IDLE_TIMEOUT_MS} closes a connection on which no byte has moved for that long,
 * while every healthy stream lives on: event streams get heartbeat comments, WebSockets ping frames and
 * SockJS its heartbeat frames, all every {@code CANVAS_AGENT_SSE_HEARTBEAT_MS}. The timeout is short here
 * (6.5 s: just above the edit-request's wait with a 1 s document-agent timeout) and the heartbeat 1 s;
 * the head deadline is long, so the silent connection is the idle timeout's, and the body deadline
 * short, so the streams show it leaves requests without a body alone.
 */
@ExtendWith(VertxExtension.class)
class IdleTimeoutTest {
  static final int IDLE_TIMEOUT_MS = 6_500;
  static final int HEARTBEAT_MS = 1_000;

  @Test
  void everyTransportsHealthyStreamOutlivesTheIdleTimeoutAndASilentConnectionDoesNot(Vertx vertx) {
    TestServer server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_IDLE_TIMEOUT_MS", String.valueOf(IDLE_TIMEOUT_MS),
                    "CANVAS_AGENT_SSE_HEARTBEAT_MS", String.valueOf(HEARTBEAT_MS),
                    "CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS", "1000",
                    "CANVAS_AGENT_HEAD_TIMEOUT_MS", "60000",
                    "CANVAS_AGENT_BODY_TIMEOUT_MS", "1000")));
    String roomId = "idle-" + UUID.randomUUID().toString().substring(0, 8);
    NetClient raw = RawConnection.client(vertx, "127.0.0.1");
    try (SockJSBrowsers browsers = SockJSBrowsers.start()) {
      SseClient sse = server.events(roomId);
      WsClient ws = Await.result(WsClient.connect(vertx, server.port(), roomId));
      List<SockJSBrowsers.Browser> pages =
          List.of("websocket", "xhr-streaming", "xhr-polling").stream()
              .map(
                  transport -> {
                    SockJSBrowsers.Browser page =
                        browsers.open(transport, server.port(), transport);
                    page.register("room." + roomId + ".canvas:host");
                    page.awaitMessage(
                        "room." + roomId + ".canvas:host",
                        hello -> "canvas:hello".equals(hello.getString("type")),
                        "its hello");
                    return page;
                  })
              .toList();
      // A connection that asked once and then says nothing, and is told nothing.
      RawConnection silent = Await.result(RawConnection.open(vertx, raw, server.port()));
      silent.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      Await.result(
          Eventually.holds(vertx, () -> Future.succeededFuture(silent.received().endsWith("}"))));

      // The event stream's heartbeats are the clock: this many intervals outlast the idle timeout.
      Await.result(sse.heartbeats(IDLE_TIMEOUT_MS / HEARTBEAT_MS + 3));

      Await.result(silent.closed());
      assertFalse(sse.ended().isComplete(), "the event stream is open");
      assertFalse(ws.closed().isComplete(), "the WebSocket is open");
      ws.send(
          "agent:ack",
          new JsonObject()
              .put("type", "agent:ack")
              .put("sessionId", "none")
              .put("seq", 1)
              .put("clientId", ws.clientId()));
      Await.result(
          ws.awaitTopic("error", payload -> "ACK_UNKNOWN".equals(payload.getString("code"))));
      JsonObject viewport =
          new JsonObject()
              .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1));
      for (SockJSBrowsers.Browser page : pages) {
        assertTrue(page.events("closed").isEmpty(), page.transport() + " is open");
        JsonObject reply = page.send("room." + roomId + ".canvas:viewport", viewport);
        assertEquals("reply", reply.getString("event"), page.transport() + ": " + reply.encode());
      }
      Await.result(ws.close());
      Await.result(sse.close());
    } finally {
      Await.result(raw.close());
      Await.result(server.stop());
    }
  }
}
