package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code add_detail} through real runs: the scripted {@code /detail} run asks for a follow-up whose
 * message asks again, so every pass asks for one more. Each asking run ends {@code scheduled}, its
 * follow-up runs after it, and past {@code followups.maxFollowups} the request is refused and the last
 * pass ends {@code done} with the count.
 */
@ExtendWith(VertxExtension.class)
class FollowUpFlowTest {

  static List<SseEvent> statuses(List<SseEvent> events) {
    return events.stream().filter(event -> event.event().equals("agent:status")).toList();
  }

  @Test
  void followUpsRunAfterTheRunThatAskedWithScheduledBetweenUpToTheCap(Vertx vertx) {
    TestServer server = TestServer.start(vertx, TestServer.config(Map.of()));
    assertEquals(3, server.config().followups().maxFollowups(), "the default cap");
    SseClient sse = server.events("detail-room");
    var accepted =
        server.postRun(
            new JsonObject().put("roomId", "detail-room").put("message", "/detail please"));
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    String requestRunId = accepted.bodyAsJsonObject().getString("runId");
    List<SseEvent> statuses =
        statuses(Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId))));

    List<String> states = statuses.stream().map(event -> event.data().getString("state")).toList();
    List<String> onePass = List.of("waiting_context", "calling_model", "streaming");
    List<String> expected = new ArrayList<>();
    for (int pass = 0; pass < 4; pass++) {
      expected.addAll(onePass);
      expected.add(pass < 3 ? "scheduled" : "done");
    }
    assertEquals(expected, states, "three follow-ups, each after the run that asked for it");

    List<JsonObject> ends =
        statuses.stream()
            .map(SseEvent::data)
            .filter(data -> List.of("scheduled", "done").contains(data.getString("state")))
            .map(data -> data.getJsonObject("detail"))
            .toList();
    assertEquals(requestRunId, ends.get(0).getString("runId"));
    for (int pass = 0; pass < 3; pass++) {
      JsonObject asked = ends.get(pass);
      JsonObject queued = asked.getJsonArray("followupsQueued").getJsonObject(0);
      assertEquals(pass + 1, queued.getInteger("number"), asked.encode());
      assertEquals("add_detail", queued.getString("reason"));
      JsonObject next = ends.get(pass + 1);
      assertEquals(
          queued.getString("runId"),
          next.getString("runId"),
          "the queued run is the one that ran next");
      assertEquals(requestRunId, next.getJsonObject("followUp").getString("requestRunId"));
      assertEquals(
          asked.getString("runId"), next.getJsonObject("followUp").getString("askedByRunId"));
      assertEquals(pass + 1, next.getInteger("followups"));
    }
    JsonObject last = ends.get(3);
    assertEquals(3, last.getInteger("followups"), "the final done carries the follow-up count");
    assertEquals(
        1,
        last.getInteger("followupsRefused"),
        "the fourth request is over the cap: " + last.encode());
    assertFalse(last.containsKey("followupsQueued"));

    // A follow-up says which request it continues from its first status.
    JsonObject secondStart = statuses.get(4).data();
    assertEquals("waiting_context", secondStart.getString("state"));
    assertEquals(
        1, secondStart.getJsonObject("detail").getJsonObject("followUp").getInteger("number"));
    Await.result(sse.close());
    Await.result(server.stop());
  }

  @Test
  void aCapOfZeroRefusesEveryFollowUpAndTheRunEndsDone(Vertx vertx) {
    TestServer server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_MAX_FOLLOWUPS", "0")));
    SseClient sse = server.events("no-detail");
    String sessionId =
        server
            .postRun(new JsonObject().put("roomId", "no-detail").put("message", "/detail please"))
            .bodyAsJsonObject()
            .getString("sessionId");
    List<SseEvent> events = Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));
    List<String> states =
        statuses(events).stream().map(event -> event.data().getString("state")).toList();
    assertEquals(List.of("waiting_context", "calling_model", "streaming", "done"), states);
    JsonObject done = events.get(events.size() - 1).data().getJsonObject("detail");
    assertEquals(1, done.getInteger("followupsRefused"), done.encode());
    assertEquals(0, done.getInteger("followups"));
    assertEquals(
        1, done.getInteger("applied"), "the chat message; the refused request is not applied");
    assertEquals(0, done.getInteger("dropped"));
    assertTrue(
        events.stream()
            .noneMatch(
                event ->
                    event.event().equals("agent:action")
                        && event
                            .data()
                            .getJsonArray("actions")
                            .getJsonObject(0)
                            .getString("name")
                            .equals("add_detail")),
        "a refused follow-up is not published");
    Await.result(sse.close());
    Await.result(server.stop());
  }

  @Test
  void aFollowUpAsksTheHostForAFreshScreenshotOfTheSameRevision(Vertx vertx) {
    TestServer server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_MAX_FOLLOWUPS", "1")));
    String room = "fresh-room";
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();
    var requests =
        vertx
            .eventBus()
            .<JsonObject>consumer(
                dev.canvasagent.bus.RoomTopic.AGENT_SCREENSHOT_REQUEST.address(room),
                request -> {
                  asked.incrementAndGet();
                  vertx
                      .eventBus()
                      .publish(
                          dev.canvasagent.bus.RoomTopic.AGENT_SCREENSHOT.address(room),
                          new JsonObject()
                              .put("requestId", request.body().getString("requestId"))
                              .put("clientId", "host-1")
                              .put(
                                  "image",
                                  new JsonObject()
                                      .put("mime", "image/png")
                                      .put("dataUrl", "data:image/png;base64,iVBORw0KGgo=")
                                      .put("bytes", 8))
                              .put(
                                  "bounds",
                                  new JsonObject()
                                      .put("x", 0)
                                      .put("y", 0)
                                      .put("w", 10)
                                      .put("h", 10))
                              .put(
                                  "viewport",
                                  new JsonObject()
                                      .put("x", 0)
                                      .put("y", 0)
                                      .put("w", 10)
                                      .put("h", 10)));
                });
    Await.result(requests.completion());
    vertx
        .eventBus()
        .publish(
            dev.canvasagent.bus.Address.SCREENSHOT_HOSTS.address(),
            new JsonObject().put("roomId", room).put("clientId", "host-1").put("present", true));
    SseClient sse = server.events(room);
    // /detail changes no shape: the follow-up sees the same revision and bounds, which the cache
    // holds.
    String sessionId =
        server
            .postRun(new JsonObject().put("roomId", room).put("message", "/detail look"))
            .bodyAsJsonObject()
            .getString("sessionId");
    Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));
    assertEquals(2, asked.get(), "the follow-up did not take the cached image");
    Await.result(requests.unregister());
    Await.result(sse.close());
    Await.result(server.stop());
  }
}
