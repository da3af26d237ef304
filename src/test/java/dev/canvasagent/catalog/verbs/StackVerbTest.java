package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.note;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code stack}: one after another in the given order, a fixed gap between real bounds. */
class StackVerbTest {
  final VerbHarness stack = new VerbHarness("stack");
  final Board board =
      board(
          geo("a", 0, 0, 100, 50),
          note("n", 500, 500),
          rotated(Math.PI / 2, geo("r", 40, 300, 100, 20)));

  static JsonObject stacked(String direction, double gap, String... shapes) {
    return new JsonObject()
        .put("shapeIds", ids(shapes))
        .put("direction", direction)
        .put("gap", gap);
  }

  @Test
  void verticallyInTheGivenOrder() {
    Board next = stack.apply(board, stacked("vertical", 10, "a", "r", "n"));
    assertEquals(0.0, bounds(next, "a").minY());
    assertEquals(60.0, bounds(next, "r").minY(), 1e-9);
    assertEquals(170.0, bounds(next, "n").minY(), 1e-9, "r is 100 tall on the page");
    assertEquals(500.0, bounds(next, "n").minX(), "across the axis nothing moves");
  }

  @Test
  void horizontallyFromTheFirstShape() {
    Board next = stack.apply(board, stacked("horizontal", 0, "n", "a"));
    assertEquals(500.0, bounds(next, "n").minX());
    assertEquals(700.0, bounds(next, "a").minX(), 1e-9);
  }

  @Test
  void theGapIsKeptWithinZeroAndTenThousand() {
    assertTrue(
        stack.violations(stacked("vertical", -5, "a", "n")).isPresent(), "the schema says >= 0");
    Board touching =
        board.apply(stack.sanitizeUnchecked(board, stacked("vertical", -500, "a", "n")).diff(), 2);
    assertEquals(50.0, bounds(touching, "n").minY());
    Board far = stack.apply(board, stacked("vertical", 1e300, "a", "n"));
    assertEquals(10_050.0, bounds(far, "n").minY());
  }

  @Test
  void oneShapeIsNotAStack() {
    assertTrue(
        stack
            .rejected(board, stacked("vertical", 4, "a", "shape:a"))
            .getMessage()
            .contains("at least 2"));
  }
}
