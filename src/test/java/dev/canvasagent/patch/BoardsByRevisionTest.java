package dev.canvasagent.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On one node no board crosses the bus for a run: the runner reads the board the patch engine holds
 * by its revision and names only that revision to the sanitizer, which reads it there too. A run's
 * actions are judged against exactly the board the run committed to, so its shapes all land.
 */
@ExtendWith(VertxExtension.class)
class BoardsByRevisionTest {
  @Test
  void aRunsBoardIsReadByRevisionFromTheNodesBoards(Vertx vertx) {
    TestServer server =
        TestServer.start(vertx, TestServer.config(Map.of()), List.of(new ScriptedModel(vertx)));
    try {
      String room = "by-revision";
      SseClient events = server.events(room);
      List<JsonObject> calls = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        calls.add(
            ScriptedModel.call(
                "create_shape",
                new JsonObject()
                    .put("id", "box-" + i)
                    .put("type", "rectangle")
                    .put("x", 120 * i)
                    .put("y", 0)
                    .put("props", new JsonObject().put("w", 100).put("h", 50))));
      }
      HttpResponse<Buffer> accepted = server.postRun(ScriptedModel.run(room, calls));
      assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
      String runId = accepted.bodyAsJsonObject().getString("runId");
      Await.result(events.awaitEvent(TwoServersOneRoomTest.endOf(runId)));

      assertEquals(4, server.board(room).getLong("revision"), "every action committed");
      JsonObject verticles = server.get("/health").bodyAsJsonObject().getJsonObject("verticles");
      JsonObject sanitizer = verticles.getJsonObject("sanitizer");
      assertEquals(0, sanitizer.getLong("boardsFetched"), sanitizer.encode());
      assertTrue(sanitizer.getLong("boardsHeld") >= 4, sanitizer.encode());
      JsonObject cache = verticles.getJsonObject("patch-engine").getJsonObject("boardCache");
      assertEquals(1, cache.getLong("loads"), "the board was loaded once: " + cache.encode());
      assertEquals(4, server.boards().held(room).orElseThrow().revision());
      events.close();
    } finally {
      Await.result(server.stop());
    }
  }
}
