package dev.canvasagent.scheduler;

import static dev.canvasagent.scheduler.RunEvents.envelopeOf;
import static dev.canvasagent.scheduler.RunEvents.indexOf;
import static dev.canvasagent.scheduler.RunEvents.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.HeldDeliveries;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The watchdog: a run still going {@code scheduler.watchdogMs} after it was handed to the runner is
 * canceled with code {@code WATCHDOG}; a runner that does not end it within
 * {@code scheduler.cancelGraceMs} is given up ({@code error}, {@code INTERRUPTED}) and the session moves on.
 */
@ExtendWith(VertxExtension.class)
class WatchdogTest {
  TestServer server;
  HeldDeliveries cancels;
  BusLog busLog;

  @AfterEach
  void stop() {
    if (cancels != null) {
      cancels.close();
    }
    if (busLog != null) {
      busLog.close();
    }
    Await.result(server.stop());
  }

  @Test
  void aRunPastTheWatchdogIsCanceledWithTheReasonAndNothingOfItFollows(Vertx vertx) {
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_RUN_WATCHDOG_MS",
                    "1000",
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS",
                    "30")));
    String room = "watchdog-room";
    SseClient sse = server.events(room);
    JsonObject accepted =
        server
            .postRun(new JsonObject().put("roomId", room).put("message", "draw 12 boxes"))
            .bodyAsJsonObject();
    String runId = accepted.getString("runId");
    busLog = new BusLog(vertx, room, accepted.getString("sessionId"));

    List<SseEvent> events = Await.result(sse.awaitEvent(status(runId, "canceled")));
    JsonObject detail = RunEvents.detail(events, status(runId, "canceled")).orElseThrow();
    assertEquals("WATCHDOG", detail.getString("code"), detail.encode());
    assertEquals("the run exceeded the watchdog limit of 1000 ms", detail.getString("reason"));
    assertTrue(detail.getInteger("applied") < 12, "stopped before it finished: " + detail.encode());
    assertTrue(events.stream().anyMatch(envelopeOf(runId)), "it had started drawing");
    assertEquals(List.of(), busLog.commitsAfterCancelOf(runId));

    // The session's next request runs as usual.
    JsonObject next =
        server
            .postRun(
                new JsonObject()
                    .put("roomId", room)
                    .put("message", "draw a star")
                    .put("sessionId", accepted.getString("sessionId")))
            .bodyAsJsonObject();
    Await.result(sse.awaitEvent(status(next.getString("runId"), "done")));
    assertEquals(List.of(), busLog.afterFinalStatusOf(runId));
    Await.result(sse.close());
  }

  @Test
  void aRunnerThatNeverAnswersTheCancelIsGivenUpAsInterruptedAndTheQueueMovesOn(Vertx vertx) {
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_RUN_WATCHDOG_MS",
                    "1000",
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS",
                    "30",
                    "CANVAS_AGENT_CONFIG",
                    "{\"scheduler\":{\"cancelGraceMs\":2000}}")));
    cancels = HeldDeliveries.drop(vertx, Address.RUNNER_CANCEL.address());
    String room = "stuck-room";
    SseClient sse = server.events(room);
    // Twenty boxes take about five seconds: longer than the watchdog and its grace together. The
    // runner never hears the cancel, so this run goes on there; the scheduler no longer waits for
    // it.
    JsonObject accepted =
        server
            .postRun(new JsonObject().put("roomId", room).put("message", "draw 20 boxes"))
            .bodyAsJsonObject();
    String runId = accepted.getString("runId");

    List<SseEvent> events = Await.result(sse.awaitEvent(status(runId, "error")));
    JsonObject detail = RunEvents.detail(events, status(runId, "error")).orElseThrow();
    assertEquals("INTERRUPTED", detail.getString("code"), detail.encode());
    assertTrue(
        detail.getString("reason").contains("2000 ms")
            && detail.getString("reason").contains("WATCHDOG"),
        detail.encode());
    assertEquals(true, detail.getBoolean("retryable"));
    assertEquals(1, cancels.count(), "the scheduler asked once");

    // The session is free: a new message starts at once instead of waiting behind the stuck run.
    JsonObject next =
        server
            .postRun(
                new JsonObject()
                    .put("roomId", room)
                    .put("message", "draw a star")
                    .put("sessionId", accepted.getString("sessionId")))
            .bodyAsJsonObject();
    events = Await.result(sse.awaitEvent(status(next.getString("runId"), "done")));
    int errorAt = indexOf(events, status(runId, "error"));
    assertTrue(
        events.subList(errorAt, events.size()).stream()
            .filter(RunEvents::isStatus)
            .noneMatch(event -> event.data().getJsonObject("detail").containsKey("position")),
        "nothing waited");
    Await.result(sse.close());
  }
}
