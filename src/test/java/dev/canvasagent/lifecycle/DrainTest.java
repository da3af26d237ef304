package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.NodeDrained;
import dev.canvasagent.bus.Drained;
import dev.canvasagent.model.ModelProvider;
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
 * see before the streams close. The document agent drains alike: its requests are refused over HTTP
 * and MCP, and its loop ends within the grace or is canceled at its end, giving its lease back. The
 * real process and SIGTERM: {@link DrainingShutdownIT}.
 */
@ExtendWith(VertxExtension.class)
class DrainTest {
  static final String ROOM = "draining";

  TestServer server;

  TestServer start(Vertx vertx, String tokenDelayMs, String graceMs) {
    return start(
        vertx,
        Map.of(
            "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", tokenDelayMs,
            "CANVAS_AGENT_SHUTDOWN_GRACE_MS", graceMs),
        List.of());
  }

  TestServer start(Vertx vertx, Map<String, String> environment, List<ModelProvider> models) {
    server = TestServer.start(vertx, TestServer.config(environment), models);
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

    Future<NodeDrained> drained = server.drain();

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

    NodeDrained outcome = Await.result(drained, 60);
    assertEquals(new NodeDrained(new Drained(1, 0, 0), new Drained(0, 0, 0)), outcome);
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

    NodeDrained outcome = Await.result(server.drain(), 60);

    assertEquals(new NodeDrained(new Drained(0, 1, 0), new Drained(0, 0, 0)), outcome);
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

  static final String TEXT = "# Notes\n\nfoo line\n";

  static HttpResponse<Buffer> post(TestServer on, String path, JsonObject body) {
    return Await.result(
        on.http().post(path).putHeader("content-type", "application/json").sendJsonObject(body));
  }

  static String createDocument(TestServer on) {
    HttpResponse<Buffer> created = post(on, "/api/docs", new JsonObject().put("content", TEXT));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject().getString("id");
  }

  static JsonObject document(TestServer on, String docId) {
    HttpResponse<Buffer> found = on.get("/api/docs/" + docId);
    assertEquals(200, found.statusCode(), found.bodyAsString());
    return found.bodyAsJsonObject();
  }

  static boolean leaseHeld(TestServer on, String docId) {
    return document(on, docId).getJsonObject("lease").getBoolean("held");
  }

  static void shuttingDown(HttpResponse<Buffer> refused) {
    assertEquals(503, refused.statusCode(), refused.bodyAsString());
    assertEquals(
        "SHUTTING_DOWN",
        refused.bodyAsJsonObject().getJsonObject("error").getString("code"),
        refused.bodyAsString());
    assertEquals("5", refused.getHeader("Retry-After"));
  }

  static void shuttingDown(JsonObject viaMcp) {
    assertEquals(true, viaMcp.getBoolean("isError"), viaMcp.encode());
    assertTrue(viaMcp.encode().contains("SHUTTING_DOWN"), viaMcp.encode());
  }

  static JsonObject editRequest(String docId, String model) {
    return new JsonObject()
        .put("canvas_session_id", docId)
        .put("instruction", "/doc-fix foo => bar")
        .put("model", model);
  }

  @Test
  void aDrainRefusesNewDocumentAgentRequestsAndLetsTheRunningLoopEndDone(Vertx vertx) {
    HeldModel held = new HeldModel(vertx);
    start(vertx, Map.of("CANVAS_AGENT_SHUTDOWN_GRACE_MS", "60000"), List.of(held));
    String docId = createDocument(server);
    SseClient room = server.events(docId);
    McpHttp mcp = new McpHttp(server.http(), server.port(), null);
    mcp.initialize("");
    HttpResponse<Buffer> started =
        post(
            server,
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "tidy it").put("model", HeldModel.MODEL));
    assertEquals(202, started.statusCode(), started.bodyAsString());
    String runId = started.bodyAsJsonObject().getString("runId");
    Await.result(held.asked());

    Future<NodeDrained> drained = server.drain();

    // Until the document agent hears of the drain, a delegated edit meets the loop's lease
    // (LOCK_NOT_AVAILABLE) and changes nothing.
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                server
                    .http()
                    .post("/api/canvas-agent/edit-request")
                    .sendJsonObject(editRequest(docId, "debug/fake"))
                    .map(refused -> refused.statusCode() == 503)));
    shuttingDown(post(server, "/api/canvas-agent/edit-request", editRequest(docId, "debug/fake")));
    // A person's instruction would preempt the loop; refused, it voids no lease.
    shuttingDown(
        post(
            server,
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "/doc-fix foo => bar").put("model", "debug/fake")));
    shuttingDown(mcp.tool("canvas_agent_edit_request", editRequest(docId, "debug/fake")));
    assertTrue(leaseHeld(server, docId), "the running loop still holds its lease");
    assertEquals(TEXT, document(server, docId).getString("content"));

    held.release();
    NodeDrained outcome = Await.result(drained, 60);

    assertEquals(new NodeDrained(new Drained(0, 0, 0), new Drained(1, 0, 0)), outcome);
    // Published before the drain ends, read by the client a moment later.
    Await.result(room.awaitEvent(event -> status(event, runId, "done")));
    assertFalse(leaseHeld(server, docId), "the loop checked in");
    assertEquals(TEXT, document(server, docId).getString("content"), "no refused request wrote");
  }

  @Test
  void aDocumentAgentLoopStillGoingAtTheGracesEndIsCanceledAndGivesItsLeaseBack(Vertx vertx) {
    HeldModel held = new HeldModel(vertx);
    start(vertx, Map.of("CANVAS_AGENT_SHUTDOWN_GRACE_MS", "500"), List.of(held));
    String docId = createDocument(server);
    SseClient room = server.events(docId);
    Future<HttpResponse<Buffer>> delegated =
        server
            .http()
            .post("/api/canvas-agent/edit-request")
            .sendJsonObject(editRequest(docId, HeldModel.MODEL));
    Await.result(held.asked());
    assertTrue(leaseHeld(server, docId));

    NodeDrained outcome = Await.result(server.drain(), 60);

    assertEquals(new NodeDrained(new Drained(0, 0, 0), new Drained(0, 1, 0)), outcome);
    Await.result(held.canceled());
    HttpResponse<Buffer> answered = Await.result(delegated);
    assertEquals(200, answered.statusCode(), answered.bodyAsString());
    JsonObject summary = answered.bodyAsJsonObject();
    assertEquals("interrupted", summary.getString("stop"), summary.encode());
    assertEquals("shutdown", summary.getString("interruptedBy"), summary.encode());
    String runId = summary.getString("runId");
    Await.result(
        room.awaitEvent(
            event ->
                event.event().equals("agent:chat")
                    && event.data().encode().contains("the server is shutting down")));
    SseEvent canceled =
        Await.result(room.awaitEvent(event -> status(event, runId, "canceled"))).stream()
            .filter(event -> status(event, runId, "canceled"))
            .findFirst()
            .orElseThrow();
    assertEquals("shutdown", canceled.data().getJsonObject("detail").getString("interruptedBy"));
    assertTrue(
        room.received().stream()
            .anyMatch(
                event ->
                    event.event().equals("agent:chat")
                        && event.data().encode().contains("the server is shutting down")),
        "the chat tells why: " + room.received());
    assertFalse(leaseHeld(server, docId), "its lease was given back");
    assertEquals(TEXT, document(server, docId).getString("content"));
  }

  @Test
  void documentAgentRequestsRefusedWhileDrainingTakeNothingFromTheRunLimit(Vertx vertx) {
    start(
        vertx,
        Map.of("CANVAS_AGENT_RUNS_PER_MINUTE", "1", "CANVAS_AGENT_SHUTDOWN_GRACE_MS", "1000"),
        List.of());
    String docId = createDocument(server);
    McpHttp mcp = new McpHttp(server.http(), server.port(), null);
    mcp.initialize("");
    Await.result(server.drain(), 60);

    // One run a minute: a refusal that kept its allowance would make the next one 429.
    for (int round = 0; round < 2; round++) {
      shuttingDown(
          post(
              server,
              "/api/docs/" + docId + "/agent",
              new JsonObject().put("instruction", "tidy it").put("model", "debug/fake")));
      shuttingDown(
          post(server, "/api/canvas-agent/edit-request", editRequest(docId, "debug/fake")));
      shuttingDown(mcp.tool("canvas_agent_edit_request", editRequest(docId, "debug/fake")));
    }
    assertFalse(leaseHeld(server, docId));
    assertEquals(TEXT, document(server, docId).getString("content"));
  }
}
