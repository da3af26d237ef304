package dev.canvasagent.scheduler;

import static dev.canvasagent.scheduler.RunEvents.indexOf;
import static dev.canvasagent.scheduler.RunEvents.started;
import static dev.canvasagent.scheduler.RunEvents.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.HeldDeliveries;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A session's runs execute one at a time, in the order they came, behind a queue of bounded depth;
 * sessions run side by side. A person's message preempts the running run, so runs wait in the queue
 * while that run is being canceled: these tests hold the runner's cancel to keep it so.
 */
@ExtendWith(VertxExtension.class)
class SessionQueueTest {
  static final String SLOW_RUN = "draw 12 boxes";
  TestServer server;
  HeldDeliveries cancels;

  @AfterEach
  void stop() {
    if (cancels != null) {
      cancels.close();
    }
    Await.result(server.stop());
  }

  JsonObject post(JsonObject body) {
    HttpResponse<Buffer> response = server.postRun(body);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  @Test
  void threeRunsOfOneSessionStartInTheOrderTheyCameOneAtATime(Vertx vertx) {
    server =
        TestServer.start(
            vertx, TestServer.config(Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "20")));
    cancels = HeldDeliveries.hold(vertx, Address.RUNNER_CANCEL.address());
    String room = "order-room";
    SseClient sse = server.events(room);
    JsonObject first = post(new JsonObject().put("roomId", room).put("message", SLOW_RUN));
    String sessionId = first.getString("sessionId");
    Await.result(sse.awaitEvent(status(first.getString("runId"), "streaming")));

    JsonObject second =
        post(
            new JsonObject()
                .put("roomId", room)
                .put("sessionId", sessionId)
                .put("message", "draw a circle"));
    JsonObject third =
        post(
            new JsonObject()
                .put("roomId", room)
                .put("sessionId", sessionId)
                .put("message", "draw a star"));
    // The preemption's cancel goes to the runner beside the second message's answer, not before it.
    Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(cancels.count() >= 1)));
    assertEquals(
        1, cancels.count(), "the second message preempted the first run; the third only queued");
    cancels.release();
    List<SseEvent> events = Await.result(sse.awaitEvent(status(third.getString("runId"), "done")));

    assertEquals(
        List.of(first.getString("runId"), second.getString("runId"), third.getString("runId")),
        started(events));
    List<JsonObject> queued =
        events.stream()
            .filter(RunEvents::isStatus)
            .filter(event -> event.data().getJsonObject("detail").containsKey("position"))
            .map(event -> event.data().getJsonObject("detail"))
            .toList();
    assertEquals(
        List.of(1, 2),
        queued.stream().map(detail -> detail.getInteger("position")).toList(),
        "each reported as scheduled with its place");
    JsonObject canceled =
        RunEvents.detail(events, status(first.getString("runId"), "canceled")).orElseThrow();
    assertEquals("PREEMPTED", canceled.getString("code"), canceled.encode());
    assertTrue(canceled.getString("reason").contains(second.getString("runId")), canceled.encode());
    // One at a time: each starts only after the one before it has ended.
    assertTrue(
        indexOf(events, status(first.getString("runId"), "canceled"))
            < indexOf(events, status(second.getString("runId"), "waiting_context")));
    assertTrue(
        indexOf(events, status(second.getString("runId"), "done"))
            < indexOf(events, status(third.getString("runId"), "waiting_context")));
    Await.result(sse.close());
  }

  @Test
  void twoSessionsRunAtTheSameTime(Vertx vertx) {
    server =
        TestServer.start(
            vertx, TestServer.config(Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "20")));
    String room = "two-sessions";
    SseClient sse = server.events(room);
    JsonObject one = post(new JsonObject().put("roomId", room).put("message", SLOW_RUN));
    JsonObject two = post(new JsonObject().put("roomId", room).put("message", "draw 12 circles"));
    Await.result(sse.awaitEvent(status(one.getString("runId"), "done")));
    List<SseEvent> events = Await.result(sse.awaitEvent(status(two.getString("runId"), "done")));

    assertTrue(
        indexOf(events, status(two.getString("runId"), "streaming"))
            < indexOf(events, status(one.getString("runId"), "done")),
        "the second session's run streamed while the first's still ran");
    assertTrue(
        events.stream()
            .filter(RunEvents::isStatus)
            .noneMatch(event -> event.data().getJsonObject("detail").containsKey("position")),
        "neither waited");
    assertEquals(
        24, server.board(room).getJsonArray("records").size(), "twelve boxes and twelve circles");
    Await.result(sse.close());
  }

  @Test
  void beyondTheQueueDepthARunIsRefusedAndNothingChanges(Vertx vertx) {
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_MAX_QUEUE_DEPTH",
                    "1",
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS",
                    "20")));
    cancels = HeldDeliveries.hold(vertx, Address.RUNNER_CANCEL.address());
    String room = "queue-room";
    SseClient sse = server.events(room);
    JsonObject first = post(new JsonObject().put("roomId", room).put("message", SLOW_RUN));
    String sessionId = first.getString("sessionId");
    Await.result(sse.awaitEvent(status(first.getString("runId"), "streaming")));

    JsonObject next = new JsonObject().put("roomId", room).put("sessionId", sessionId);
    JsonObject second = post(next.copy().put("message", "draw a circle"));
    HttpResponse<Buffer> refused = server.postRun(next.copy().put("message", "draw a star"));
    assertEquals(429, refused.statusCode(), refused.bodyAsString());
    JsonObject error = refused.bodyAsJsonObject().getJsonObject("error");
    assertEquals("QUEUE_FULL", error.getString("code"));
    assertTrue(error.getString("message").contains("limit 1"), error.encode());

    cancels.release();
    List<SseEvent> events = Await.result(sse.awaitEvent(status(second.getString("runId"), "done")));
    assertEquals(
        List.of(first.getString("runId"), second.getString("runId")),
        started(events),
        "the refused run never ran");
    List<SseEvent> positions =
        events.stream()
            .filter(RunEvents::isStatus)
            .filter(event -> event.data().getJsonObject("detail").containsKey("position"))
            .toList();
    assertEquals(1, positions.size(), "only the accepted run was reported as waiting");
    long stars =
        server.board(room).getJsonArray("records").stream()
            .map(JsonObject.class::cast)
            .filter(
                record ->
                    "star".equals(record.getJsonObject("props", new JsonObject()).getString("geo")))
            .count();
    assertEquals(0, stars, "nothing of the refused message reached the board");
    Await.result(sse.close());
  }
}
