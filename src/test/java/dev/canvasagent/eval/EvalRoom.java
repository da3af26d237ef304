package dev.canvasagent.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RichText;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * One room of a real server, as the eval suite drives it: post a run, wait for its final status on
 * the room's event stream, then read the board it left — and check every record with tldraw.
 */
final class EvalRoom {
  private final TestServer server;
  private final String roomId;
  private final SseClient events;

  EvalRoom(TestServer server, String roomId) {
    this.server = server;
    this.roomId = roomId;
    this.events = server.events(roomId);
  }

  /** The events of one run, the final status last. */
  record RunResult(List<SseEvent> events) {
    JsonObject finalStatus() {
      return events.get(events.size() - 1).data();
    }

    String state() {
      return finalStatus().getString("state");
    }

    JsonObject detail() {
      return finalStatus().getJsonObject("detail");
    }

    /** What the assistant said in the chat (its text and its {@code think}/{@code message} actions). */
    List<String> chat() {
      return events.stream()
          .filter(event -> event.event().equals("agent:chat"))
          .filter(event -> event.data().containsKey("message"))
          .map(event -> event.data().getJsonObject("message").getString("text"))
          .toList();
    }
  }

  RunResult run(String message) {
    return run(new JsonObject().put("message", message));
  }

  /**
   * A run with extra request fields (a viewport), up to its own end: final, or {@code scheduled} when
   * follow-ups are to come; it must end done unless the caller checks otherwise.
   */
  RunResult run(JsonObject request) {
    var response = server.postRun(request.copy().put("roomId", roomId));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
    String runId = response.bodyAsJsonObject().getString("runId");
    java.util.function.Predicate<SseEvent> ends =
        event ->
            event.event().equals("agent:status")
                && sessionId.equals(event.data().getString("sessionId"))
                && List.of("scheduled", "done", "error", "canceled")
                    .contains(event.data().getString("state"))
                && !event.data().getJsonObject("detail", new JsonObject()).containsKey("position")
                && runId.equals(
                    event
                        .data()
                        .getJsonObject("detail", new JsonObject())
                        .getString("runId", runId));
    List<SseEvent> all = Await.result(events.awaitEvent(ends));
    List<SseEvent> mine =
        all.stream()
            .filter(event -> sessionId.equals(event.data().getString("sessionId")))
            .toList();
    int end = mine.size();
    for (int i = 0; i < mine.size(); i++) {
      if (ends.test(mine.get(i))) {
        end = i + 1;
      }
    }
    return new RunResult(mine.subList(0, end));
  }

  /**
   * A person's request with its follow-ups: the session's events up to its first {@code done},
   * {@code error} or {@code canceled}, which a request reaches only when no follow-up is left to run.
   */
  RunResult request(String message) {
    var response = server.postRun(new JsonObject().put("message", message).put("roomId", roomId));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
    List<SseEvent> all =
        Await.result(
            events.awaitEvent(
                event ->
                    event.event().equals("agent:status")
                        && sessionId.equals(event.data().getString("sessionId"))
                        && List.of("done", "error", "canceled")
                            .contains(event.data().getString("state"))));
    return new RunResult(
        all.stream()
            .filter(event -> sessionId.equals(event.data().getString("sessionId")))
            .toList());
  }

  RunResult runDone(String message) {
    RunResult result = run(message);
    assertEquals("done", result.state(), result.finalStatus().encode());
    return result;
  }

  /** The board now; every record on it passes tldraw's own validation. */
  BoardView board() {
    JsonObject json = server.board(roomId);
    List<JsonObject> records =
        json.getJsonArray("records").stream().map(JsonObject.class::cast).toList();
    if (!records.isEmpty()) {
      TldrawOracle.assertValid(records);
    }
    return new BoardView(Board.fromJson(json), json.getLong("revision"));
  }

  void close() {
    Await.result(events.close());
  }

  /** A board read for assertions: shapes by id, type and text, with their page bounds. */
  record BoardView(Board board, long revision) {
    List<JsonObject> shapes() {
      return board.records().values().stream()
          .filter(record -> "shape".equals(record.getString("typeName")))
          .toList();
    }

    List<JsonObject> bindings() {
      return board.records().values().stream()
          .filter(record -> "binding".equals(record.getString("typeName")))
          .toList();
    }

    List<JsonObject> ofType(String type) {
      return shapes().stream().filter(shape -> type.equals(shape.getString("type"))).toList();
    }

    Optional<JsonObject> shape(String modelId) {
      return board.record("shape:" + modelId);
    }

    JsonObject only(String type) {
      List<JsonObject> shapes = ofType(type);
      assertEquals(1, shapes.size(), "one " + type + " shape: " + shapes);
      return shapes.get(0);
    }

    JsonObject withText(String text) {
      List<JsonObject> shapes =
          shapes().stream().filter(shape -> text.equals(text(shape))).toList();
      assertEquals(
          1,
          shapes.size(),
          "one shape with the text '"
              + text
              + "': "
              + shapes().stream().map(EvalRoom.BoardView::text).toList());
      return shapes.get(0);
    }

    Box bounds(JsonObject shape) {
      return new ShapeGeometry(board)
          .pageBounds(shape.getString("id"))
          .orElseThrow(() -> new AssertionError("no bounds for " + shape.getString("id")));
    }

    static String text(JsonObject shape) {
      JsonObject props = shape.getJsonObject("props");
      if (props.containsKey("richText")) {
        return RichText.plainText(props.getJsonObject("richText"));
      }
      return props.getString("name", "");
    }

    static String prop(JsonObject shape, String key) {
      return shape.getJsonObject("props").getString(key);
    }

    static void assertApart(Box left, Box right) {
      assertTrue(
          left.maxX() <= right.minX()
              || right.maxX() <= left.minX()
              || left.maxY() <= right.minY()
              || right.maxY() <= left.minY(),
          "overlap: " + left + " and " + right);
    }
  }
}
