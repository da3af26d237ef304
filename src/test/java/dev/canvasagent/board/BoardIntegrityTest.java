package dev.canvasagent.board;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What must hold between records after a diff: parents, bindings and removals stay consistent. */
class BoardIntegrityTest {
  static JsonObject geo(String id) {
    return ShapeRecords.shape(
        id, "geo", 10, 20, "a1", ShapeRecords.geoProps("rectangle", 100, 80, ""));
  }

  static JsonObject frame(String id) {
    return ShapeRecords.shape(id, "frame", 0, 0, "a2", ShapeRecords.frameProps(400, 300, "Frame"));
  }

  static JsonObject arrow(String id) {
    return ShapeRecords.shape(id, "arrow", 0, 0, "a3", ShapeRecords.arrowProps(100, 0, ""));
  }

  static JsonObject in(JsonObject shape, String parentId) {
    return shape.copy().put("parentId", parentId);
  }

  static JsonObject binding(String id, String fromId, String toId) {
    return new JsonObject()
        .put("id", id)
        .put("typeName", "binding")
        .put("type", "arrow")
        .put("fromId", fromId)
        .put("toId", toId)
        .put(
            "props",
            new JsonObject()
                .put("terminal", "end")
                .put("normalizedAnchor", new JsonObject().put("x", 0.5).put("y", 0.5))
                .put("isExact", false)
                .put("isPrecise", false)
                .put("snap", "none"))
        .put("meta", new JsonObject());
  }

  static Board board(JsonObject... records) {
    return Board.empty("room-1").apply(RecordDiff.putting(records), 1);
  }

  static Optional<String> problem(Board board, RecordDiff diff) {
    return BoardIntegrity.problem(board, diff);
  }

  static void assertProblem(Optional<String> problem, String... mentions) {
    assertTrue(problem.isPresent(), "expected a problem");
    for (String mention : mentions) {
      assertTrue(problem.get().contains(mention), problem.get() + " mentions " + mention);
    }
  }

  static RecordDiff removing(String... ids) {
    return new RecordDiff(List.of(), List.of(ids));
  }

  @Test
  void aSoundDiffHasNoProblem() {
    Board board = board(frame("shape:f"), geo("shape:g"), arrow("shape:a"));

    assertEquals(Optional.empty(), problem(board, RecordDiff.putting(geo("shape:new"))));
    assertEquals(
        Optional.empty(), problem(board, RecordDiff.putting(in(geo("shape:kid"), "shape:f"))));
    assertEquals(
        Optional.empty(),
        problem(board, RecordDiff.putting(binding("binding:1", "shape:a", "shape:g"))));
    assertEquals(Optional.empty(), problem(board, removing("shape:g")));
    assertEquals(Optional.empty(), problem(board, new RecordDiff(List.of(), List.of())));
  }

  @Test
  void removingFrameAndChildTogetherIsSound() {
    Board board = board(frame("shape:f"), in(geo("shape:kid"), "shape:f"));
    assertEquals(Optional.empty(), problem(board, removing("shape:f", "shape:kid")));
  }

  @Test
  void removingAnUnknownIdIsAProblem() {
    assertProblem(
        problem(board(geo("shape:g")), removing("shape:nope")), "shape:nope", "no such record");
  }

  @Test
  void removingAFrameThatStillHasAChildIsAProblem() {
    Board board = board(frame("shape:f"), in(geo("shape:kid"), "shape:f"));
    assertProblem(problem(board, removing("shape:f")), "shape:kid", "shape:f", "removed");
  }

  @Test
  void aChildWhoseParentIsMissingIsAProblem() {
    assertProblem(
        problem(board(), RecordDiff.putting(in(geo("shape:kid"), "shape:ghost"))),
        "shape:kid",
        "shape:ghost");
  }

  @Test
  void aChildWhoseParentIsRemovedInTheSameDiffIsAProblem() {
    Board board = board(frame("shape:f"));
    RecordDiff diff = new RecordDiff(List.of(in(geo("shape:kid"), "shape:f")), List.of("shape:f"));
    assertProblem(problem(board, diff), "shape:kid", "removed");
  }

  @Test
  void aChildOfAGeoShapeIsAProblem() {
    Board board = board(geo("shape:g"));
    assertProblem(
        problem(board, RecordDiff.putting(in(geo("shape:kid"), "shape:g"))), "shape:kid", "geo");
  }

  @Test
  void turningAParentIntoAGeoWhileItHasChildrenIsAProblem() {
    Board board = board(frame("shape:f"), in(geo("shape:kid"), "shape:f"));
    JsonObject nowAGeo = geo("shape:f");
    assertProblem(problem(board, RecordDiff.putting(nowAGeo)), "shape:kid", "cannot contain");
  }

  @Test
  void aShapeThatIsItsOwnParentIsAProblem() {
    Board board = board(frame("shape:f"));
    assertProblem(
        problem(board, RecordDiff.putting(in(frame("shape:f"), "shape:f"))), "shape:f", "itself");
  }

  @Test
  void aParentCycleIsAProblem() {
    Board board = board(frame("shape:f1"), in(frame("shape:f2"), "shape:f1"));
    assertProblem(
        problem(board, RecordDiff.putting(in(frame("shape:f1"), "shape:f2"))),
        "shape:f1",
        "itself");
  }

  /** A board with {@code depth} nested frames, f1 on the page; the deepest is {@code shape:f<depth>}. */
  static Board nestedFrames(int depth) {
    JsonObject[] frames = new JsonObject[depth];
    for (int i = 1; i <= depth; i++) {
      frames[i - 1] = i == 1 ? frame("shape:f1") : in(frame("shape:f" + i), "shape:f" + (i - 1));
    }
    return board(frames);
  }

  @Test
  void aShapeUnderAHundredFramesIsSound() {
    Board board = nestedFrames(100);
    assertEquals(
        Optional.empty(), problem(board, RecordDiff.putting(in(geo("shape:kid"), "shape:f100"))));
  }

  @Test
  void aShapeUnderAHundredAndOneFramesIsAProblem() {
    Board board = nestedFrames(101);
    assertProblem(
        problem(board, RecordDiff.putting(in(geo("shape:kid"), "shape:f101"))),
        "shape:kid",
        "deeper than 100");
  }

  @Test
  void aBindingFromAShapeThatIsNotAnArrowIsAProblem() {
    Board board = board(geo("shape:g"), geo("shape:h"));
    assertProblem(
        problem(board, RecordDiff.putting(binding("binding:1", "shape:g", "shape:h"))),
        "binding:1",
        "fromId");
  }

  @Test
  void aBindingFromAMissingArrowIsAProblem() {
    Board board = board(geo("shape:h"));
    assertProblem(
        problem(board, RecordDiff.putting(binding("binding:1", "shape:ghost", "shape:h"))),
        "binding:1",
        "fromId");
  }

  @Test
  void aBindingToAMissingShapeIsAProblem() {
    Board board = board(arrow("shape:a"));
    assertProblem(
        problem(board, RecordDiff.putting(binding("binding:1", "shape:a", "shape:ghost"))),
        "binding:1",
        "toId",
        "shape:ghost");
  }

  @Test
  void removingAShapeABindingPointsToIsAProblem() {
    Board board =
        board(arrow("shape:a"), geo("shape:g"), binding("binding:1", "shape:a", "shape:g"));
    assertProblem(problem(board, removing("shape:g")), "binding:1", "toId", "removed");
    assertProblem(problem(board, removing("shape:a")), "binding:1", "fromId", "removed");
  }

  @Test
  void removingTheShapeWithItsBindingIsSound() {
    Board board =
        board(arrow("shape:a"), geo("shape:g"), binding("binding:1", "shape:a", "shape:g"));
    assertEquals(Optional.empty(), problem(board, removing("shape:g", "binding:1")));
  }

  @Test
  void onlyShapesBindingsAndAssetsMayBePut() {
    JsonObject page =
        new JsonObject()
            .put("id", "page:page")
            .put("typeName", "page")
            .put("name", "Page 1")
            .put("index", "a1")
            .put("meta", new JsonObject());
    JsonObject document =
        new JsonObject().put("id", "document:document").put("typeName", "document");
    assertProblem(
        problem(board(), RecordDiff.putting(page)), "page:page", "only shape, binding and asset");
    assertProblem(problem(board(), RecordDiff.putting(document)), "document:document");
    assertProblem(problem(board(), RecordDiff.putting(new JsonObject().put("id", "x:1"))), "x:1");
  }
}
