package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.geo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code distribute}: equal gaps between the first and last shape along an axis. */
class DistributeVerbTest {
  final VerbHarness distribute = new VerbHarness("distribute");

  static JsonObject along(String direction, String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes)).put("direction", direction);
  }

  @Test
  void theShapesBetweenTheEndsAreSpacedEvenlyWhateverOrderTheyAreNamedIn() {
    Board board =
        board(
            geo("a", 0, 0, 10, 10),
            geo("b", 30, 50, 20, 10),
            geo("c", 200, 0, 10, 10),
            geo("d", 150, 7, 10, 10));
    Board next = distribute.apply(board, along("horizontal", "c", "b", "d", "a"));
    // span 0..210, widths 50, three gaps of 160 / 3
    double gap = 160.0 / 3;
    assertEquals(0.0, bounds(next, "a").minX());
    assertEquals(10 + gap, bounds(next, "b").minX(), 1e-9);
    assertEquals(30 + 2 * gap, bounds(next, "d").minX(), 1e-9);
    assertEquals(200.0, bounds(next, "c").minX());
    assertEquals(50.0, bounds(next, "b").minY(), "only along the axis");
  }

  @Test
  void verticallyToo() {
    Board board = board(geo("a", 0, 0, 10, 10), geo("b", 0, 20, 10, 10), geo("c", 0, 100, 10, 10));
    Board next = distribute.apply(board, along("vertical", "a", "b", "c"));
    assertEquals(50.0, bounds(next, "b").minY(), 1e-9, "span 0..110, two gaps of 40");
  }

  @Test
  void fewerThanThreeShapesAreRejected() {
    Board board = board(geo("a", 0, 0, 10, 10), geo("b", 0, 20, 10, 10));
    assertTrue(distribute.violations(along("vertical", "a", "b")).isPresent());
    assertTrue(
        distribute
            .rejected(board, along("vertical", "a", "b", "b"))
            .getMessage()
            .contains("at least 3"));
  }

  @Test
  void anUnknownDirectionIsRefused() {
    Board board = board(geo("a", 0, 0, 10, 10), geo("b", 0, 20, 10, 10), geo("c", 0, 100, 10, 10));
    assertTrue(distribute.violations(along("diagonal", "a", "b", "c")).isPresent());
    assertTrue(
        distribute
            .rejectedUnchecked(board, along("diagonal", "a", "b", "c"))
            .getMessage()
            .contains("diagonal"));
  }
}
