package dev.canvasagent.scheduler;

import static dev.canvasagent.scheduler.RunEvents.envelopeOf;
import static dev.canvasagent.scheduler.RunEvents.indexOf;
import static dev.canvasagent.scheduler.RunEvents.started;
import static dev.canvasagent.scheduler.RunEvents.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /api/canvas-agent/cancel} and preemption through real runs. The scripted
 * {@code /two-passes} request asks for two follow-ups that draw twelve boxes, then twelve circles,
 * slowly: the first is canceled mid-stream while the second waits. Nothing of a canceled run is sent
 * after its {@code canceled} status: no commit asked of the patch engine, no envelope, no board revision.
 */
@ExtendWith(VertxExtension.class)
abstract class CancelFlowContract {
  /** Pacing of the fake model's stream: twelve boxes take about three seconds. */
  static final int TOKEN_DELAY_MS = 30;

  Vertx vertx;
  TestServer server;
  String roomId;
  SseClient sse;
  BusLog busLog;

  abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                    Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", String.valueOf(TOKEN_DELAY_MS)))
                .withDatabase(database()));
    roomId = "cancel-" + UUID.randomUUID().toString().substring(0, 8);
    sse = server.events(roomId);
  }

  @AfterEach
  void stop() {
    if (busLog != null) {
      busLog.close();
    }
    Await.result(sse.close());
    Await.result(server.stop());
  }

  JsonObject post(JsonObject body) {
    HttpResponse<Buffer> response = server.postRun(body.copy().put("roomId", roomId));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  HttpResponse<Buffer> cancel(Buffer body, String contentType) {
    return Await.result(
        server
            .http()
            .post("/api/canvas-agent/cancel")
            .putHeader("content-type", contentType)
            .sendBuffer(body));
  }

  HttpResponse<Buffer> cancel(JsonObject body) {
    return cancel(body.toBuffer(), "application/json");
  }

  /** The session's stored revisions (author {@code agent:<sessionId>}). */
  long revisionsBy(String sessionId) {
    JsonArray revisions =
        server
            .get("/api/rooms/" + roomId + "/revisions?limit=500")
            .bodyAsJsonObject()
            .getJsonArray("revisions");
    return revisions.stream()
        .map(JsonObject.class::cast)
        .filter(rev -> ("agent:" + sessionId).equals(rev.getString("author")))
        .count();
  }

  /** The {@code /two-passes} request, its first follow-up (twelve boxes) streaming and one box on the board. */
  record TwoPasses(String sessionId, String requestRunId, String boxesRunId, String circlesRunId) {}

  TwoPasses twoPassesWithTheBoxesUnderWay() {
    JsonObject accepted = post(new JsonObject().put("message", "/two-passes"));
    String sessionId = accepted.getString("sessionId");
    busLog = new BusLog(vertx, roomId, sessionId);
    List<SseEvent> events =
        Await.result(sse.awaitEvent(status(accepted.getString("runId"), "scheduled")));
    JsonArray queued =
        RunEvents.detail(events, status(accepted.getString("runId"), "scheduled"))
            .orElseThrow()
            .getJsonArray("followupsQueued");
    TwoPasses passes =
        new TwoPasses(
            sessionId,
            accepted.getString("runId"),
            queued.getJsonObject(0).getString("runId"),
            queued.getJsonObject(1).getString("runId"));
    Await.result(sse.awaitEvent(envelopeOf(passes.boxesRunId())));
    return passes;
  }

  /** Nothing of {@code runId} after its final status, on the bus, on the stream, or on the board. */
  void assertNothingAfterTheCancel(String runId, String sessionId, long revisionsAtCancel) {
    // Long enough for the twelve boxes to have finished streaming, had the run not been canceled.
    Await.result(vertx.timer(12L * 10 * TOKEN_DELAY_MS));
    assertEquals(
        List.of(),
        busLog.commitsAfterCancelOf(runId),
        "no commit asked once the runner took the cancel");
    assertEquals(
        List.of(),
        busLog.afterFinalStatusOf(runId),
        "no commit asked, no envelope or status sent after the canceled status");
    List<SseEvent> events = sse.received();
    int canceledAt = indexOf(events, status(runId, "canceled"));
    assertTrue(canceledAt >= 0);
    assertEquals(
        -1,
        indexOf(events.subList(canceledAt + 1, events.size()), envelopeOf(runId)),
        "no envelope of the run after its canceled status");
    assertEquals(
        revisionsAtCancel,
        revisionsBy(sessionId),
        "no revision of the run after its canceled status");
  }

  @Test
  void cancelEndsTheRunningRunDropsTheWaitingOneAndNothingOfItIsCommittedAfter() {
    TwoPasses passes = twoPassesWithTheBoxesUnderWay();

    HttpResponse<Buffer> response = cancel(new JsonObject().put("sessionId", passes.sessionId()));
    long revisionsAtCancel = revisionsBy(passes.sessionId());
    assertEquals(200, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(true, body.getBoolean("ok"));
    assertEquals(passes.sessionId(), body.getString("sessionId"));
    assertEquals(
        new JsonObject().put("runId", passes.boxesRunId()).put("state", "canceled"),
        body.getJsonObject("canceled"));
    assertEquals(new JsonArray().add(passes.circlesRunId()), body.getJsonArray("dropped"));

    // The answer names what was canceled once the running run has ended; the dropped run's status
    // is
    // published beside it, so it may reach the stream just after.
    List<SseEvent> events = Await.result(sse.awaitEvent(status(passes.circlesRunId(), "canceled")));
    JsonObject canceled =
        RunEvents.detail(events, status(passes.boxesRunId(), "canceled")).orElseThrow();
    assertEquals("CANCELED", canceled.getString("code"));
    assertEquals("canceled by request", canceled.getString("reason"));
    assertTrue(
        canceled.getInteger("applied") >= 1 && canceled.getInteger("applied") < 12,
        canceled.encode());
    JsonObject dropped =
        RunEvents.detail(events, status(passes.circlesRunId(), "canceled")).orElseThrow();
    assertEquals("CANCELED", dropped.getString("code"));
    assertEquals(
        2,
        dropped.getJsonObject("followUp").getInteger("number"),
        "a dropped run says which follow-up it was");
    assertEquals(
        canceled.getInteger("applied").longValue(),
        revisionsAtCancel,
        "what was applied, and only that, is on the board");

    assertNothingAfterTheCancel(passes.boxesRunId(), passes.sessionId(), revisionsAtCancel);
    assertEquals(
        List.of(passes.requestRunId(), passes.boxesRunId()),
        started(sse.received()),
        "the dropped follow-up never started");
    JsonArray runs =
        server.get("/api/sessions/" + passes.sessionId()).bodyAsJsonObject().getJsonArray("runs");
    java.util.Map<String, String> states = new java.util.HashMap<>();
    runs.forEach(
        run ->
            states.put(
                ((JsonObject) run).getString("runId"), ((JsonObject) run).getString("state")));
    assertEquals(
        "canceled",
        states.get(passes.boxesRunId()),
        "the run record says how it ended: " + runs.encode());
    assertTrue(
        states.values().stream()
            .noneMatch(state -> state.equals("queued") || state.equals("running")),
        "no record is left live to be swept as interrupted: " + runs.encode());

    // The session goes on with its next request.
    JsonObject next =
        post(new JsonObject().put("message", "draw a star").put("sessionId", passes.sessionId()));
    Await.result(sse.awaitEvent(status(next.getString("runId"), "done")));
  }

  @Test
  void aNewMessagePreemptsTheRunningRunAndDropsTheFollowUpsWaiting() {
    TwoPasses passes = twoPassesWithTheBoxesUnderWay();

    JsonObject next =
        post(new JsonObject().put("message", "draw a star").put("sessionId", passes.sessionId()));
    List<SseEvent> events = Await.result(sse.awaitEvent(status(next.getString("runId"), "done")));

    JsonObject preempted =
        RunEvents.detail(events, status(passes.boxesRunId(), "canceled")).orElseThrow();
    assertEquals("PREEMPTED", preempted.getString("code"), preempted.encode());
    assertTrue(
        preempted.getString("reason").contains(next.getString("runId")),
        "the reason names the new run: " + preempted.encode());
    JsonObject dropped =
        RunEvents.detail(events, status(passes.circlesRunId(), "canceled")).orElseThrow();
    assertEquals("PREEMPTED", dropped.getString("code"));
    assertEquals(
        List.of(passes.requestRunId(), passes.boxesRunId(), next.getString("runId")),
        started(events));
    assertTrue(
        indexOf(events, status(passes.boxesRunId(), "canceled"))
            < indexOf(events, status(next.getString("runId"), "waiting_context")),
        "the new run starts once the old one has settled");
    assertEquals(
        preempted.getInteger("applied").longValue(),
        events.stream().filter(envelopeOf(passes.boxesRunId())).count(),
        "each applied box was published before the cancel");
    assertNothingAfterTheCancel(
        passes.boxesRunId(), passes.sessionId(), revisionsBy(passes.sessionId()));
  }

  @Test
  void cancelingASessionWithNothingRunningCancelsNothingAndChangesNothing() {
    JsonObject accepted = post(new JsonObject().put("message", "draw a star"));
    Await.result(sse.awaitEvent(status(accepted.getString("runId"), "done")));
    JsonObject board = server.board(roomId);

    HttpResponse<Buffer> response =
        cancel(new JsonObject().put("sessionId", accepted.getString("sessionId")));
    assertEquals(200, response.statusCode(), response.bodyAsString());
    assertNull(response.bodyAsJsonObject().getValue("canceled"));
    assertEquals(new JsonArray(), response.bodyAsJsonObject().getJsonArray("dropped"));
    assertEquals(board, server.board(roomId));
    assertFalse(
        sse.received().stream()
            .anyMatch(
                event -> RunEvents.isStatus(event) && RunEvents.state(event).equals("canceled")));
  }

  @Test
  void badCancelRequestsAreRefusedNamingTheProblemAndTheRunGoesOn() {
    JsonObject accepted = post(new JsonObject().put("message", "draw 12 boxes"));
    String sessionId = accepted.getString("sessionId");
    Await.result(sse.awaitEvent(envelopeOf(accepted.getString("runId"))));

    assertRefused(
        cancel(new JsonObject().put("sessionId", "no-such-session")),
        404,
        "SESSION_NOT_FOUND",
        "no-such-session");
    assertRefused(
        cancel(Buffer.buffer("{\"sessionId\":"), "application/json"),
        400,
        "INVALID_JSON",
        "not valid JSON");
    assertRefused(
        cancel(Buffer.buffer("[\"" + sessionId + "\"]"), "application/json"),
        400,
        "INVALID_JSON",
        "JSON object");
    assertRefused(cancel(new JsonObject()), 400, "INVALID_REQUEST", "sessionId");
    assertRefused(
        cancel(new JsonObject().put("sessionId", 42)), 400, "INVALID_REQUEST", "sessionId");
    assertRefused(
        cancel(new JsonObject().put("sessionId", "not an id")),
        400,
        "INVALID_REQUEST",
        "sessionId");
    assertRefused(
        cancel(new JsonObject().put("sessionId", sessionId).put("runId", "x")),
        400,
        "INVALID_REQUEST",
        "runId");
    assertRefused(
        cancel(new JsonObject().put("sessionId", sessionId).put("pad", "x".repeat(5_000))),
        413,
        "BODY_TOO_LARGE",
        "4096");
    assertRefused(
        cancel(Buffer.buffer("sessionId=" + sessionId), "text/plain"),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "text/plain");
    assertRefused(
        Await.result(server.http().get("/api/canvas-agent/cancel").send()),
        405,
        "METHOD_NOT_ALLOWED",
        "GET");

    List<SseEvent> events =
        Await.result(sse.awaitEvent(status(accepted.getString("runId"), "done")));
    assertEquals(
        12,
        RunEvents.detail(events, status(accepted.getString("runId"), "done"))
            .orElseThrow()
            .getInteger("applied"),
        "every box: no refused cancel touched the run");
    assertFalse(
        events.stream()
            .anyMatch(
                event -> RunEvents.isStatus(event) && RunEvents.state(event).equals("canceled")));
    assertEquals(12L, revisionsBy(sessionId));
  }

  static void assertRefused(HttpResponse<Buffer> response, int status, String code, String named) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(false, body.getBoolean("ok"));
    assertEquals(code, body.getJsonObject("error").getString("code"), body.encode());
    assertTrue(body.getJsonObject("error").getString("message").contains(named), body.encode());
  }
}
