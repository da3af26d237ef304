package dev.canvasagent.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs of one session execute one at a time, in order, behind a bounded queue. */
@ExtendWith(VertxExtension.class)
class SessionQueueTest {

  @Test
  void aSessionRunsOneAtATimeAndRefusesBeyondItsQueueDepth(Vertx vertx) {
    TestServer server = TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_MAX_QUEUE_DEPTH", "1")));
    String room = "queue-room";
    SseClient sse = server.events(room);
    HttpResponse<Buffer> first = server.postRun(new JsonObject().put("roomId", room).put("message", "first"));
    String sessionId = first.bodyAsJsonObject().getString("sessionId");

    // While the first run streams, two more arrive at once: one may wait, the other is refused.
    JsonObject next = new JsonObject().put("roomId", room).put("sessionId", sessionId);
    List<HttpResponse<Buffer>> more = Await.result(Future.all(
        post(server, next.copy().put("message", "second")),
        post(server, next.copy().put("message", "third")))).list();
    List<Integer> statuses = more.stream().map(HttpResponse::statusCode).sorted().toList();
    assertEquals(List.of(202, 429), statuses);
    HttpResponse<Buffer> refused = more.stream().filter(r -> r.statusCode() == 429).findFirst().orElseThrow();
    assertEquals("QUEUE_FULL", refused.bodyAsJsonObject().getJsonObject("error").getString("code"));
    String queuedRunId = more.stream().filter(r -> r.statusCode() == 202).findFirst().orElseThrow()
        .bodyAsJsonObject().getString("runId");

    List<SseEvent> events = Await.result(sse.awaitEvent(event -> event.event().equals("agent:status")
        && event.data().getString("state").equals("done")
        && event.data().getJsonObject("detail").getString("runId").equals(queuedRunId)));
    List<String> states = events.stream().filter(e -> e.event().equals("agent:status"))
        .map(e -> e.data().getString("state")).toList();
    assertTrue(states.contains("scheduled"), "the waiting run was reported as scheduled: " + states);
    assertEquals(2, states.stream().filter("done"::equals).count(), "two runs, not three");
    // One at a time: the second run gathers context only after the first is done.
    int firstDone = states.indexOf("done");
    assertEquals(1, states.subList(0, firstDone).stream().filter("waiting_context"::equals).count(), states.toString());
    Await.result(sse.close());
    Await.result(server.stop());
  }

  static Future<HttpResponse<Buffer>> post(TestServer server, JsonObject body) {
    return server.http().post("/api/canvas-agent/run").putHeader("content-type", "application/json").sendJsonObject(body);
  }
}
