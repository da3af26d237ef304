package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Drained;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.McpHttp;
import dev.canvasagent.support.OwnPostgres;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A shutdown's drain on a real server (the verticles in this JVM, real HTTP): {@code /health/ready}
 * turns 503 {@code draining} at once while {@code /health/live} stays 200, new runs are refused
 * {@code 503 SHUTTING_DOWN} over HTTP and MCP, and the running run ends by itself within the grace
 * or, still going at its end, {@code canceled} — either way with a final status the room's clients
 * see before the streams close. The real process and SIGTERM: {@link DrainingShutdownIT}.
 */
@ExtendWith(VertxExtension.class)
class DrainTest {
  static final String ROOM = "draining";

  TestServer server;

  TestServer start(Vertx vertx, String tokenDelayMs, String graceMs) {
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", tokenDelayMs,
                    "CANVAS_AGENT_SHUTDOWN_GRACE_MS", graceMs)));
    return server;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      Await.result(server.stop());
    }
  }

  static JsonObject json(HttpResponse<Buffer> response) {
    return response.bodyAsJsonObject();
  }

  static boolean status(SseEvent event, String runId, String state) {
    return event.event().equals("agent:status")
        && event.data().getString("state").equals(state)
        && runId.equals(event.data().getJsonObject("detail", new JsonObject()).getString("runId"));
  }

  static String startRun(TestServer server, String message) {
    HttpResponse<Buffer> accepted =
        server.postRun(new JsonObject().put("roomId", ROOM).put("message", message));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    return accepted.bodyAsJsonObject().getString("runId");
  }

  @Test
  void liveAndReadyAnswer200OnAServerThatHasStarted(Vertx vertx) {
    start(vertx, "0", "20000");
    HttpResponse<Buffer> live = server.get("/health/live");
    assertEquals(200, live.statusCode(), live.bodyAsString());
    assertEquals(new JsonObject().put("ok", true).put("status", "live"), json(live));
    HttpResponse<Buffer> ready = server.get("/health/ready");
    assertEquals(200, ready.statusCode(), ready.bodyAsString());
    assertEquals(new JsonObject().put("ok", true).put("status", "ready"), json(ready));
    assertEquals("up", json(server.get("/health")).getString("status"), "/health is as it was");
  }

  @Test
  void aStoreThatIsAwayMakesTheNodeNotReadyButLeavesItLive(Vertx vertx) {
    try (OwnPostgres postgres = OwnPostgres.start()) {
      server =
          TestServer.start(
              vertx,
              TestServer.config(Map.of()).withDatabase(Optional.of(postgres.config("ready"))));
      assertEquals(200, server.get("/health/ready").statusCode());

      postgres.stopServer();
      HttpResponse<Buffer> away = server.get("/health/ready");
      assertEquals(503, away.statusCode(), away.bodyAsString());
      assertEquals(
          new JsonObject()
              .put("ok", false)
              .put("status", "not_ready")
              .put("reason", "store_unavailable"),
          json(away));
      assertEquals(200, server.get("/health/live").statusCode(), "a restart would not cure it");

      postgres.startServer();
      Await.result(
          Eventually.holds(
              vertx,
              () ->
                  server
                      .http()
                      .get("/health/ready")
                      .send()
                      .map(ready -> ready.statusCode() == 200)));
      Await.result(server.stop());
      server = null;
    }
  }

  @Test
  void aDrainRefusesNewRunsAndLetsTheRunningOneEndDone(Vertx vertx) {
    start(vertx, "25", "60000");
    SseClient events = server.events(ROOM);
    McpHttp mcp = new McpHttp(server.http(), server.port(), null);
    mcp.initialize("");
    String runId = startRun(server, "draw 3 red circles");
    Await.result(events.awaitEvent(event -> status(event, runId, "streaming")));

    Future<Drained> drained = server.drain();

    HttpResponse<Buffer> ready = server.get("/health/ready");
    assertEquals(503, ready.statusCode(), ready.bodyAsString());
    assertEquals(
        new JsonObject().put("ok", false).put("status", "not_ready").put("reason", "draining"),
        json(ready));
    assertEquals(200, server.get("/health/live").statusCode(), "draining, the process is live");

    Await.result(
        Eventually.holds(
            vertx,
            () ->
                server
                    .http()
                    .post("/api/canvas-agent/run")
                    .sendJsonObject(new JsonObject().put("roomId", ROOM).put("message", "a box"))
                    .map(refused -> refused.statusCode() == 503)));
    HttpResponse<Buffer> refused =
        server.postRun(new JsonObject().put("roomId", ROOM).put("message", "a box"));
    assertEquals(503, refused.statusCode(), refused.bodyAsString());
    assertEquals("SHUTTING_DOWN", json(refused).getJsonObject("error").getString("code"));
    assertEquals("5", refused.getHeader("Retry-After"));
    JsonObject viaMcp =
        mcp.tool("canvas_agent_run", new JsonObject().put("roomId", ROOM).put("message", "a box"));
    assertEquals(true, viaMcp.getBoolean("isError"), viaMcp.encode());
    assertTrue(viaMcp.encode().contains("SHUTTING_DOWN"), viaMcp.encode());

    Drained outcome = Await.result(drained, 60);
    assertEquals(new Drained(1, 0, 0), outcome);
    // The final status is out before the drain ends; the client reads it a moment later.
    Await.result(events.awaitEvent(event -> status(event, runId, "done")));
    assertTrue(
        events.received().stream()
            .noneMatch(
                event ->
                    event.event().equals("agent:status")
                        && !runId.equals(
                            event
                                .data()
                                .getJsonObject("detail", new JsonObject())
                                .getString("runId"))
                        && List.of("waiting_context", "streaming")
                            .contains(event.data().getString("state"))),
        "no refused run started: " + events.received());
  }

  @Test
  void aRunStillGoingAtTheGracesEndIsCanceledAndItsClientsSeeIt(Vertx vertx) {
    start(vertx, "400", "500");
    SseClient events = server.events(ROOM);
    String runId = startRun(server, "draw 3 red circles");
    Await.result(events.awaitEvent(event -> status(event, runId, "streaming")));

    Drained outcome = Await.result(server.drain(), 60);

    assertEquals(new Drained(0, 1, 0), outcome);
    // Published before the drain ends, read by the client a moment later.
    SseEvent canceled =
        Await.result(events.awaitEvent(event -> status(event, runId, "canceled"))).stream()
            .filter(event -> status(event, runId, "canceled"))
            .findFirst()
            .orElseThrow();
    JsonObject detail = canceled.data().getJsonObject("detail");
    assertEquals("CANCELED", detail.getString("code"), detail.encode());
    assertTrue(detail.getString("reason").contains("shutdown grace"), detail.encode());
    assertEquals(
        "canceled",
        json(server.get("/api/sessions/" + canceled.data().getString("sessionId")))
            .getJsonArray("runs")
            .stream()
            .map(JsonObject.class::cast)
            .filter(run -> run.getString("runId").equals(runId))
            .findFirst()
            .orElseThrow()
            .getString("state"),
        "its record holds its end");
  }
}
