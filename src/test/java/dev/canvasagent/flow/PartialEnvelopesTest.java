package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Board actions still being written reach the room as partial envelopes, over real HTTP and SSE:
 * before the final envelope of the same action id, with lower seqs, and without changing the board
 * the run leaves.
 */
@ExtendWith(VertxExtension.class)
class PartialEnvelopesTest {

  static List<SseEvent> runToEnd(TestServer server, String roomId, String message) {
    return runToEnd(server, new JsonObject().put("roomId", roomId).put("message", message));
  }

  /** A run of {@code request} (its roomId, message, …) to its final status: the session's events. */
  static List<SseEvent> runToEnd(TestServer server, JsonObject request) {
    SseClient sse = server.events(request.getString("roomId"));
    var response = server.postRun(request);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
    List<SseEvent> events =
        Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId))).stream()
            .filter(event -> sessionId.equals(event.data().getString("sessionId")))
            .toList();
    Await.result(sse.close());
    return events;
  }

  static List<JsonObject> envelopes(List<SseEvent> events) {
    return events.stream()
        .filter(event -> event.event().equals("agent:action"))
        .map(SseEvent::data)
        .toList();
  }

  static boolean isPartial(JsonObject envelope) {
    return envelope.getBoolean("partial", false);
  }

  static String actionId(JsonObject envelope) {
    return envelope.getJsonArray("actions").getJsonObject(0).getString("id");
  }

  @Test
  void partialsOfAnActionComeBeforeItsFinalEnvelopeWithLowerSeqs(Vertx vertx) {
    TestServer server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "1")));
    List<SseEvent> events =
        runToEnd(server, "partials-" + UUID.randomUUID(), "a box for the roadmap");
    assertEquals("done", events.get(events.size() - 1).data().getString("state"));
    List<JsonObject> envelopes = envelopes(events);

    long previousSeq = 0;
    Set<String> finished = new HashSet<>();
    Set<String> previewed = new HashSet<>();
    for (JsonObject envelope : envelopes) {
      assertTrue(
          envelope.getLong("seq") > previousSeq,
          "seq strictly increases over partial and final envelopes");
      previousSeq = envelope.getLong("seq");
      String id = actionId(envelope);
      assertFalse(finished.contains(id), "nothing of " + id + " after its final envelope");
      if (isPartial(envelope)) {
        previewed.add(id);
        assertNull(envelope.getValue("rev"), "a partial commits nothing");
        assertNull(envelope.getValue("diff"));
        JsonObject action = envelope.getJsonArray("actions").getJsonObject(0);
        assertEquals("create_shape", action.getString("name"), "only board verbs stream partials");
        String type = action.getJsonObject("params").getString("type");
        assertTrue(
            type == null || List.of("rectangle", "sticky", "text").contains(type),
            "an enum shows only whole: " + type);
      } else {
        finished.add(id);
      }
    }
    assertEquals(3, finished.size(), "three shapes");
    assertEquals(finished, previewed, "each was previewed before it landed");
    assertTrue(
        events.stream()
            .filter(event -> event.event().equals("agent:action") && isPartial(event.data()))
            .allMatch(event -> event.id() == null),
        "partials are live only: no resumable event id");
    Await.result(server.stop());
  }

  @Test
  void theBoardIsTheSameWithPartialsAndWithout(Vertx vertx) {
    // One server at a time: two on one Vert.x would share the event bus.
    TestServer withPartials =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "1")));
    List<SseEvent> previewedRun = runToEnd(withPartials, "same", "a box for the roadmap");
    JsonObject previewedBoard = withPartials.board("same");
    Await.result(withPartials.stop());
    TestServer without =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "0")));
    List<SseEvent> plainRun = runToEnd(without, "same", "a box for the roadmap");
    JsonObject plainBoard = without.board("same");
    Await.result(without.stop());

    assertTrue(envelopes(previewedRun).stream().anyMatch(PartialEnvelopesTest::isPartial));
    assertTrue(
        envelopes(plainRun).stream().noneMatch(PartialEnvelopesTest::isPartial),
        "interval 0: no partials");
    assertEquals(3, plainBoard.getJsonArray("records").size());
    assertEquals(withoutIds(plainBoard), withoutIds(previewedBoard));
    assertEquals(plainBoard.getLong("revision"), previewedBoard.getLong("revision"));
  }

  /** The records in z-order, their generated ids left out. */
  static List<JsonObject> withoutIds(JsonObject board) {
    return board.getJsonArray("records").stream()
        .map(JsonObject.class::cast)
        .sorted(Comparator.comparing(record -> record.getString("index", "")))
        .map(
            record -> {
              JsonObject copy = record.copy();
              copy.remove("id");
              return copy;
            })
        .toList();
  }
}
