package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /api/rooms/{roomId}/revisions} on a memory store that keeps three revisions per room: a
 * page asked for from before the oldest kept says {@code historyTrimmed} and where history starts
 * now, a page from inside the kept history says it is whole, and the board still has every record.
 */
@ExtendWith(VertxExtension.class)
class TrimmedHistoryTest {
  static final String ROOM = "trimmed-room";
  TestServer server;

  @BeforeEach
  void start(Vertx vertx) {
    server =
        TestServer.start(
            vertx, TestServer.config(Map.of("CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM", "3")));
    // Five revisions through the patch engine, one box each: the store keeps the last three.
    for (long revision = 0; revision < 5; revision++) {
      JsonObject box = TestShapes.geo("box" + revision, revision * 200.0, 0, 100, 50);
      Await.result(
          Address.PATCH_BOARD_CHANGE.ask(
              vertx.eventBus(),
              new BoardChangeRequest(ROOM, revision, RecordDiff.putting(box), "person")));
    }
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  static List<Long> revs(JsonObject page) {
    return page.getJsonArray("revisions").stream()
        .map(revision -> ((JsonObject) revision).getLong("rev"))
        .toList();
  }

  @Test
  void aPageFromBeforeTheOldestKeptSaysHistoryWasTrimmedAndWhereItStarts() {
    var answer = server.get("/api/rooms/" + ROOM + "/revisions?after=0");
    assertEquals(200, answer.statusCode(), answer.bodyAsString());
    JsonObject page = answer.bodyAsJsonObject();

    assertEquals(List.of(3L, 4L, 5L), revs(page));
    assertTrue(page.getBoolean("historyTrimmed"), page.encode());
    assertEquals(3L, page.getLong("oldestKeptRev"));
  }

  @Test
  void aPageFromInsideTheKeptHistoryIsWhole() {
    JsonObject page = server.get("/api/rooms/" + ROOM + "/revisions?after=2").bodyAsJsonObject();

    assertEquals(List.of(3L, 4L, 5L), revs(page));
    assertFalse(page.getBoolean("historyTrimmed"), page.encode());
    assertFalse(page.containsKey("oldestKeptRev"));
  }

  @Test
  void aPageAfterTheNewestIsEmptyAndNotTrimmed() {
    JsonObject page = server.get("/api/rooms/" + ROOM + "/revisions?after=5").bodyAsJsonObject();

    assertEquals(List.of(), revs(page));
    assertFalse(page.getBoolean("historyTrimmed"));
  }

  @Test
  void theBoardKeepsEveryRecordWhateverHistoryWasTrimmed() {
    JsonObject board = server.board(ROOM);

    assertEquals(5L, board.getLong("revision"));
    List<String> ids =
        board.getJsonArray("records").stream()
            .map(record -> ((JsonObject) record).getString("id"))
            .toList();
    for (long n = 0; n < 5; n++) {
      assertTrue(ids.contains("shape:box" + n), "shape:box" + n + " in " + ids);
    }
  }
}
