package dev.canvasagent.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The board, sanitizer, screenshot and bridge messages: each reads back from its JSON as it was
 * written, says the board's revision as {@code revision}, and refuses a missing key by name.
 */
class BoardMessagesTest {
  static final JsonObject SHAPE =
      new JsonObject().put("id", "shape:a").put("typeName", "shape").put("x", 1);
  static final RecordDiff DIFF = new RecordDiff(List.of(SHAPE), List.of("shape:b"));
  static final Viewport BOX = new Viewport(-10.5, 20, 300, 200);

  @Test
  void aBoardChangeAndItsCommitReadBackAsWritten() {
    BoardChangeRequest change = new BoardChangeRequest("room-1", 4, DIFF, "person");
    assertEquals(change, BoardChangeRequest.fromJson(change.toJson()));
    assertEquals(4L, change.toJson().getLong("baseRevision"));

    CommittedRevision committed = new CommittedRevision(5, true);
    assertEquals(committed, CommittedRevision.fromJson(committed.toJson()));
    assertEquals(new JsonObject().put("revision", 5L).put("changed", true), committed.toJson());
    // A diff that changed nothing: the base revision, nothing committed.
    CommittedRevision unchanged = new CommittedRevision(4, false);
    assertEquals(unchanged, CommittedRevision.fromJson(unchanged.toJson()));
  }

  @Test
  void aBoardSnapshotSaysItsRevisionAsRevision() {
    Board board = new Board("room-1", 7, Map.of("shape:a", SHAPE));
    BoardSnapshot snapshot = new BoardSnapshot(board);

    JsonObject json = snapshot.toJson();
    assertEquals(7L, json.getLong("revision"));
    assertFalse(json.containsKey("rev"), json.encode());
    BoardSnapshot back = BoardSnapshot.fromJson(json);
    assertEquals(json, back.toJson());
    assertEquals(7L, back.revision());
    assertEquals(new JsonArray().add(SHAPE), back.records());
    assertEquals(new RoomRef("room-1"), RoomRef.fromJson(new RoomRef("room-1").toJson()));
  }

  @Test
  void aPageOfRevisionsReadsBackAsWrittenAndItsQueryHasDefaults() {
    BoardRevisionPage page =
        new BoardRevisionPage(
            List.of(
                new BoardRevisionPage.Revision(1, DIFF, "agent:s", 1_000),
                new BoardRevisionPage.Revision(2, RecordDiff.putting(), "person", 2_000)));
    assertEquals(page, BoardRevisionPage.fromJson(page.toJson()));
    assertEquals(1L, page.toJson().getJsonArray("revisions").getJsonObject(0).getLong("revision"));

    BoardRevisionsQuery query = new BoardRevisionsQuery("room-1", 3, 50);
    assertEquals(query, BoardRevisionsQuery.fromJson(query.toJson()));
    assertEquals(
        new BoardRevisionsQuery("room-1", 0, BoardRevisionsQuery.DEFAULT_LIMIT),
        BoardRevisionsQuery.fromJson(new JsonObject().put("roomId", "room-1")));
  }

  @Test
  void anActionToSanitizeAndItsAcceptanceReadBackAsWritten() {
    AgentAction action =
        new AgentAction("a1", "create_shape", new JsonObject().put("type", "rectangle"));
    SanitizeRequest request =
        new SanitizeRequest(
            "room-1", action, 3, new CoordinateFrame(100, -50, Map.of("shape:a_x", 0.25)));
    JsonObject json = request.toJson();
    assertEquals(json, SanitizeRequest.fromJson(json).toJson());
    assertEquals(3L, json.getLong("revision"), "the board by its revision, never by value");
    assertEquals(
        CoordinateFrame.atOrigin().toJson(),
        SanitizeRequest.fromJson(json.copy().put("frame", null)).frame().toJson(),
        "no frame: the page's own coordinates");
    SanitizeRequest inView =
        new SanitizeRequest(
            "room-1", action, 3, CoordinateFrame.atOrigin(), new Viewport(5, 6, 7, 8));
    assertEquals(new Viewport(5, 6, 7, 8), SanitizeRequest.fromJson(inView.toJson()).view());
    assertEquals(null, request.view(), "no view: placed near the session's origin");
    assertEquals(
        null,
        SanitizeRequest.fromJson(json.copy().put("view", "everywhere")).view(),
        "a view that is not a rectangle is no view");

    AcceptedAction accepted = new AcceptedAction(action, "BOARD", DIFF);
    assertEquals(accepted, AcceptedAction.fromJson(accepted.toJson()));
  }

  @Test
  void aScreenshotRequestAndItsAnswerReadBackAsWritten() {
    ScreenshotRequest request = new ScreenshotRequest("room-1", "session-1", BOX, "7", true);
    assertEquals(request, ScreenshotRequest.fromJson(request.toJson()));
    ScreenshotRequest bare = new ScreenshotRequest("room-1", "session-1", null, null, false);
    assertEquals(bare, ScreenshotRequest.fromJson(bare.toJson()));

    Screenshot shot =
        new Screenshot(
            "request-1",
            "client-1",
            new Screenshot.Image("image/png", "data:image/png;base64,iVBORw0KGgo=", 8),
            BOX,
            new Viewport(0, 0, 1600, 1200),
            List.of("shape:a"),
            "7",
            false);
    assertEquals(shot, Screenshot.fromJson(shot.toJson()));
    Screenshot cached = shot.withCached(true);
    assertEquals(cached, Screenshot.fromJson(cached.toJson()));
    assertTrue(cached.toJson().getBoolean("cached"));
  }

  @Test
  void aHostReportWithoutItsFieldsReadsAsNothing() {
    HostPresence present = new HostPresence("room-1", "client-1", true);
    assertEquals(present, HostPresence.fromJson(present.toJson()));
    assertNull(HostPresence.fromJson(present.toJson().put("present", "yes")));
    assertNull(HostPresence.fromJson(new JsonObject().put("roomId", "room-1")));
    assertNull(HostPresence.fromJson(null));
  }

  @Test
  void aRoomsViewportsReadBackAsWritten() {
    RoomViewports viewports =
        new RoomViewports(
            "room-1",
            "client-1",
            List.of(
                new RoomViewports.ClientViewport("client-1", true, BOX, List.of("shape:a")),
                new RoomViewports.ClientViewport("client-2", false, BOX, null)));
    assertEquals(viewports, RoomViewports.fromJson(viewports.toJson()));
    assertFalse(
        viewports.toJson().getJsonArray("viewports").getJsonObject(1).containsKey("selection"),
        "a client that sent no selection has none");
    RoomViewports empty = new RoomViewports("room-1", null, List.of());
    assertEquals(empty, RoomViewports.fromJson(empty.toJson()));

    FrameHandled handled = new FrameHandled("room-1", "client-1", "canvas:change");
    assertEquals(handled, FrameHandled.fromJson(handled.toJson()));
  }

  @Test
  void aMissingKeyIsRefusedAsAnInvalidRequestNamingIt() {
    Failure noRoom = assertThrows(Failure.class, () -> RoomRef.fromJson(new JsonObject()));
    assertEquals(FailureCode.INVALID_REQUEST, noRoom.code());
    assertEquals("RoomRef needs roomId", noRoom.getMessage());

    JsonObject change = new BoardChangeRequest("room-1", 4, DIFF, "person").toJson();
    change.remove("baseRevision");
    Failure noBase = assertThrows(Failure.class, () -> BoardChangeRequest.fromJson(change));
    assertEquals("BoardChangeRequest needs baseRevision", noBase.getMessage());

    JsonObject board = new Board("room-1", 1, Map.of()).toJson();
    board.remove("revision");
    Failure noRevision = assertThrows(Failure.class, () -> BoardSnapshot.fromJson(board));
    assertEquals("BoardSnapshot needs revision", noRevision.getMessage());

    Failure noBody = assertThrows(Failure.class, () -> CommittedRevision.fromJson(null));
    assertEquals(FailureCode.INVALID_REQUEST, noBody.code());

    Failure badFresh =
        assertThrows(
            Failure.class,
            () ->
                ScreenshotRequest.fromJson(
                    new JsonObject()
                        .put("roomId", "room-1")
                        .put("sessionId", "s")
                        .put("fresh", "yes")));
    assertEquals(FailureCode.INVALID_REQUEST, badFresh.code());
  }
}
