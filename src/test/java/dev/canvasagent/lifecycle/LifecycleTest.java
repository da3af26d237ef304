package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.CanvasAgent;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.junit5.VertxExtension;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Startup fails fast with a clear message and leaves nothing running; stopping ends streams and frees the port. */
@ExtendWith(VertxExtension.class)
class LifecycleTest {

  @Test
  void healthReportsEveryVerticleAndTheStore(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.empty());
    var response = server.get("/health");
    assertEquals(200, response.statusCode());
    JsonObject health = response.bodyAsJsonObject();
    assertEquals("up", health.getString("status"));
    assertEquals(
        new JsonObject().put("kind", "memory").put("ok", true), health.getJsonObject("store"));
    JsonObject verticles = health.getJsonObject("verticles");
    for (String name :
        new String[] {
          "bridge",
          "runner",
          "scheduler",
          "sanitizer",
          "screenshot",
          "lease",
          "docagent",
          "patch-engine"
        }) {
      assertTrue(verticles.getJsonObject(name).getBoolean("ok"), name + " is healthy");
    }
    assertEquals(8, verticles.size());
    Await.result(server.stop());
  }

  @Test
  void healthNamesThePostgresStore(Vertx vertx) {
    DatabaseConfig database = TestDatabase.freshSchema();
    try {
      TestServer server = TestServer.start(vertx, Optional.of(database));
      JsonObject health = server.get("/health").bodyAsJsonObject();
      assertEquals(
          new JsonObject().put("kind", "postgres").put("ok", true), health.getJsonObject("store"));
      Await.result(server.stop());
    } finally {
      TestDatabase.drop(database);
    }
  }

  @Test
  void stoppingEndsOpenEventStreamsAndFreesThePort(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.empty());
    SseClient sse = server.events("closing-room");
    int port = server.port();
    Await.result(server.stop());
    Await.result(sse.ended());
    Throwable refused =
        Await.failure(
            vertx
                .createHttpClient()
                .request(io.vertx.core.http.HttpMethod.GET, port, "127.0.0.1", "/health")
                .compose(request -> request.send()));
    assertTrue(refused.getMessage().toLowerCase().contains("refused"), refused.getMessage());
    assertTrue(vertx.deploymentIDs().isEmpty(), "every verticle undeployed");
  }

  @Test
  void idleStreamsGetHeartbeatsAndClosedClientsFreeTheirSubscription(Vertx vertx) {
    TestServer server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_SSE_HEARTBEAT_MS", "100")));
    SseClient sse = server.events("idle-room");
    Await.result(sse.heartbeat());
    assertEquals(1, sseStreams(server));
    Await.result(sse.close());
    awaitBridgeClients(vertx, server, 0);
    Await.result(server.stop());
  }

  @Test
  void aClientThatStopsReadingIsDisconnectedInsteadOfBuffered(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.empty());
    String room = "slow-room";
    // A raw connection that asks for the stream and then never reads.
    NetSocket socket = Await.result(vertx.createNetClient().connect(server.port(), "127.0.0.1"));
    Promise<Void> firstBytes = Promise.promise();
    socket.handler(
        bytes -> {
          firstBytes.tryComplete();
          socket.pause();
        });
    Await.result(
        socket.write(
            "GET /api/rooms/"
                + room
                + "/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"));
    Await.result(firstBytes.future());
    assertEquals(1, sseStreams(server));

    floodRoom(vertx, room);
    awaitBridgeClients(vertx, server, 0);
    socket.close();
    Await.result(server.stop());
  }

  @Test
  void aWebSocketClientThatStopsReadingIsClosedInsteadOfBuffered(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.empty());
    String room = "slow-ws-room";
    NetSocket socket = Await.result(vertx.createNetClient().connect(server.port(), "127.0.0.1"));
    Promise<Void> upgraded = Promise.promise();
    socket.handler(
        bytes -> {
          upgraded.tryComplete();
          socket.pause();
        });
    Await.result(
        socket.write(
            "GET /api/rooms/"
                + room
                + "/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"));
    Await.result(upgraded.future());
    awaitBridgeClients(vertx, server, 1);
    floodRoom(vertx, room);
    awaitBridgeClients(vertx, server, 0);
    socket.close();
    Await.result(server.stop());
  }

  /** Far more than any socket buffer holds: the server must give up on a client that stops reading, not queue it all. */
  static void floodRoom(Vertx vertx, String room) {
    JsonObject bulky =
        new JsonObject()
            .put("type", "agent:chat")
            .put("sessionId", "s")
            .put(
                "message",
                new JsonObject().put("role", "system").put("text", "x".repeat(16 * 1024)));
    for (int i = 0; i < 4_000; i++) {
      vertx.eventBus().publish(RoomTopic.AGENT_CHAT.address(room), bulky);
    }
  }

  /** Connections are noticed closing asynchronously, with no event to wait on: re-check health. */
  static void awaitBridgeClients(Vertx vertx, TestServer server, int clients) {
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                server
                    .http()
                    .get("/health")
                    .send()
                    .map(
                        response ->
                            response
                                    .bodyAsJsonObject()
                                    .getJsonObject("verticles")
                                    .getJsonObject("bridge")
                                    .getInteger("clients")
                                == clients)));
  }

  static int sseStreams(TestServer server) {
    return server
        .get("/health")
        .bodyAsJsonObject()
        .getJsonObject("verticles")
        .getJsonObject("bridge")
        .getInteger("clients");
  }

  @Test
  void anUnreachableDatabaseStopsStartupWithAClearMessage(Vertx vertx) {
    DatabaseConfig nowhere =
        new DatabaseConfig("127.0.0.1", 1, "test", "postgres", "", "public", 2, 8);
    AppConfig config = TestServer.config(Map.of()).withDatabase(Optional.of(nowhere));
    Throwable failure = Await.failure(CanvasAgent.start(vertx, config));
    assertTrue(
        failure
            .getMessage()
            .contains("cannot open the PostgreSQL store at postgresql://postgres@127.0.0.1:1/test"),
        failure.getMessage());
    assertTrue(vertx.deploymentIDs().isEmpty(), "nothing left deployed");
  }

  @Test
  void aTakenPortFailsTheBridgeAndUndeploysTheRest(Vertx vertx) {
    TestServer first = TestServer.start(vertx, Optional.empty());
    int deployedByFirst = vertx.deploymentIDs().size();
    AppConfig samePort = TestServer.config(Map.of("PORT", String.valueOf(first.port())));
    Throwable failure = Await.failure(CanvasAgent.start(vertx, samePort));
    assertTrue(
        failure.getMessage().startsWith("startup failed: the bridge verticle did not deploy"),
        failure.getMessage());
    assertEquals(
        deployedByFirst, vertx.deploymentIDs().size(), "the failed start left nothing behind");
    Await.result(first.stop());
  }

  @Test
  void anUnknownDefaultModelStopsStartupNamingTheKey(Vertx vertx) {
    AppConfig config = TestServer.config(Map.of("CANVAS_STEWARD_MODEL", "openai:gpt-nothing"));
    Throwable failure = Await.failure(CanvasAgent.start(vertx, config));
    assertTrue(failure instanceof ConfigException);
    assertTrue(failure.getMessage().contains("CANVAS_STEWARD_MODEL"), failure.getMessage());
    assertTrue(failure.getMessage().contains("openai:gpt-nothing"), failure.getMessage());
  }
}
