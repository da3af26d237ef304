package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.assertBox;
import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.catalog.verbs.VerbHarness.record;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.geometry.Box;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code move}: to a position by the shapes' real top-left, or by a displacement, through rotated parents. */
class MoveVerbTest {
  final VerbHarness move = new VerbHarness("move");

  Board board = board(geo("a", 0, 0, 100, 50), geo("b", 200, 100, 40, 40));

  static JsonObject to(double x, double y, String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes)).put("x", x).put("y", y);
  }

  static JsonObject by(double dx, double dy, String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes)).put("dx", dx).put("dy", dy);
  }

  @Test
  void shapesMovedToAPositionKeepTheirLayoutWithTheTopLeftThere() {
    Board next = move.apply(board, to(1000, 500, "a", "b"));
    assertBox(new Box(1000, 500, 1100, 550), bounds(next, "a"));
    assertBox(new Box(1200, 600, 1240, 640), bounds(next, "b"));
  }

  @Test
  void aRotatedShapeIsMovedByWhatIsSeenNotByItsOrigin() {
    board = board(rotated(Math.PI / 2, geo("r", 100, 100, 100, 50)));
    Board next = move.apply(board, to(0, 0, "r"));
    assertBox(new Box(0, 0, 50, 100), bounds(next, "r"));
    assertEquals(50.0, record(next, "r").getDouble("x"), 1e-9);
  }

  @Test
  void shapesMovedByADisplacement() {
    Board next = move.apply(board, by(-30, 15, "a", "b"));
    assertEquals(-30.0, record(next, "a").getDouble("x"));
    assertEquals(15.0, record(next, "a").getDouble("y"));
    assertEquals(170.0, record(next, "b").getDouble("x"));
  }

  @Test
  void aChildOfARotatedFrameMovesAsAskedOnThePage() {
    board =
        board(
            rotated(Math.PI / 2, frame("f", 500, 0, 300, 300)), in("f", geo("c", 10, 20, 30, 30)));
    Box before = bounds(board, "c");
    Board next = move.apply(board, by(40, 0, "c"));
    assertBox(
        new Box(before.minX() + 40, before.minY(), before.maxX() + 40, before.maxY()),
        bounds(next, "c"));
    assertEquals(10.0, record(next, "c").getDouble("x"), 1e-9, "page +x is the frame's -y");
    assertEquals(-20.0, record(next, "c").getDouble("y"), 1e-9);
    assertEquals("shape:f", record(next, "c").getString("parentId"));
  }

  @Test
  void aGroupAndItsChildTogetherMoveOnce() {
    board = board(group("g", 0, 0), in("g", geo("c", 0, 0, 10, 10)));
    Board next = move.apply(board, by(5, 0, "g", "c"));
    assertEquals(5.0, record(next, "g").getDouble("x"));
    assertEquals(0.0, record(next, "c").getDouble("x"), "moved with its group, not again");
  }

  @Test
  void positionsAreInTheModelsFrameAndASingleShapesRoundingIsRestored() {
    move.frame = new CoordinateFrame(1000, 500, Map.of("shape:a_x", 0.25, "shape:a_y", -0.25));
    Board next = move.apply(board, to(10, 20, "a"));
    assertEquals(1010.25, record(next, "a").getDouble("x"));
    assertEquals(519.75, record(next, "a").getDouble("y"));

    Board together = move.apply(board, to(10, 20, "a", "b"));
    assertEquals(
        1010.0,
        record(together, "a").getDouble("x"),
        "no one shape's rounding for a group's corner");
  }

  @Test
  void hugeAndInfinitePositionsAreClampedToTheBoard() {
    Board far = move.apply(board, to(1e300, -1e300, "a"));
    assertEquals(1_000_000.0, record(far, "a").getDouble("x"));
    assertEquals(-1_000_000.0, record(far, "a").getDouble("y"));

    Board infinite =
        board.apply(move.sanitizeUnchecked(board, by(Double.POSITIVE_INFINITY, 0, "a")).diff(), 2);
    assertEquals(1_000_000.0, record(infinite, "a").getDouble("x"));
  }

  @Test
  void notANumberIsRejected() {
    assertTrue(move.rejectedUnchecked(board, by(Double.NaN, 0, "a")).getMessage().contains("dx"));
  }

  @Test
  void xWithoutYOrMixedWithDxIsRejected() {
    JsonObject onlyX = new JsonObject().put("shapeIds", ids("a")).put("x", 5);
    assertTrue(move.rejected(board, onlyX).getMessage().contains("either x and y"));
    move.rejected(board, to(1, 2, "a").put("dx", 3).put("dy", 4));
    move.rejected(board, new JsonObject().put("shapeIds", ids("a")));
  }

  @Test
  void theSchemaRefusesAnEmptyListAndUnknownFields() {
    assertTrue(move.violations(by(1, 1).put("shapeIds", new JsonArray())).isPresent());
    assertTrue(move.violations(by(1, 1, "a").put("speed", 3)).isPresent());
  }

  @Test
  void theNormalizedActionNamesRecordIds() {
    JsonObject params = move.sanitize(board, by(1, 1, "a", "shape:b", "a")).params();
    assertEquals(ids("shape:a", "shape:b"), params.getJsonArray("shapeIds"));
  }

  @Test
  void onlyChangedRecordsArePut() {
    assertTrue(move.sanitize(board, by(0, 0, "a")).diff().isEmpty());
    assertTrue(
        move.sanitize(board, to(0, 0, "a", "b")).diff().isEmpty(),
        "their top-left is already there");
  }
}
