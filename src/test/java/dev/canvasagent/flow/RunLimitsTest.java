package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A run stops taking tool calls at its cap, and says so. */
@ExtendWith(VertxExtension.class)
class RunLimitsTest {
  @Test
  void aRunPastItsStepCapStopsTheModelAndEndsDone(Vertx vertx) {
    TestServer server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_MAX_ACTIONS_PER_RUN", "2")));
    SseClient sse = server.events("capped");
    String sessionId =
        server
            .postRun(new JsonObject().put("roomId", "capped").put("message", "four calls"))
            .bodyAsJsonObject()
            .getString("sessionId");
    List<SseEvent> events = Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));
    JsonObject done = events.get(events.size() - 1).data();
    assertEquals("done", done.getString("state"));
    assertEquals("step_cap", done.getJsonObject("detail").getString("stopReason"));
    assertEquals(
        2,
        done.getJsonObject("detail").getInteger("applied"),
        "think and the first shape, nothing after");
    assertEquals(1, events.stream().filter(event -> event.event().equals("agent:action")).count());
    assertEquals(1, server.board("capped").getJsonArray("records").size());
    Await.result(sse.close());
    Await.result(server.stop());
  }
}
