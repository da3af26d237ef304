package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.assertBox;
import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.catalog.verbs.VerbHarness.record;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code rotate}: degrees in, radians in [0, 2π) out, about the shapes' centre or a given point. */
class RotateVerbTest {
  final VerbHarness rotate = new VerbHarness("rotate");
  final Board board = board(geo("a", 0, 0, 100, 50));

  static JsonObject turn(double degrees, String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes)).put("degrees", degrees);
  }

  static double rotation(Board board, String id) {
    return record(board, id).getDouble("rotation");
  }

  @Test
  void aShapeTurnsAboutItsCentreByDefault() {
    Board next = rotate.apply(board, turn(90, "a"));
    assertEquals(Math.PI / 2, rotation(next, "a"), 1e-9);
    assertBox(new Box(25, -25, 75, 75), bounds(next, "a"));
    assertEquals(75.0, record(next, "a").getDouble("x"), 1e-9);
    assertEquals(-25.0, record(next, "a").getDouble("y"), 1e-9);
  }

  @Test
  void shapesTurnTogetherAboutAGivenPoint() {
    Board two = board(geo("a", 0, 0, 10, 10), geo("b", 100, 0, 10, 10));
    Board next = rotate.apply(two, turn(180, "a", "b").put("originX", 0).put("originY", 0));
    assertBox(new Box(-10, -10, 0, 0), bounds(next, "a"));
    assertBox(new Box(-110, -10, -100, 0), bounds(next, "b"));
  }

  @Test
  void rotationIsKeptWithinAFullTurn() {
    assertEquals(3 * Math.PI / 2, rotation(rotate.apply(board, turn(-90, "a")), "a"), 1e-9);
    assertEquals(0.0, rotation(rotate.apply(board, turn(720, "a")), "a"), 1e-9);
    Board already = board(rotated(Math.PI * 1.5, geo("r", 0, 0, 10, 10)));
    assertEquals(0.0, rotation(rotate.apply(already, turn(90, "r")), "r"), 1e-9);

    double huge = rotation(rotate.apply(board, turn(1e300, "a")), "a");
    assertTrue(huge >= 0 && huge < 2 * Math.PI, String.valueOf(huge));
  }

  @Test
  void aChildOfARotatedFrameTurnsAboutItsOwnCentreOnThePage() {
    Board nested =
        board(rotated(0.5, frame("f", 300, 300, 400, 400)), in("f", geo("c", 50, 60, 80, 40)));
    Box before = bounds(nested, "c");
    Board next = rotate.apply(nested, turn(90, "c"));
    Box after = bounds(next, "c");
    assertEquals(before.centerX(), after.centerX(), 1e-6);
    assertEquals(before.centerY(), after.centerY(), 1e-6);
    assertEquals(
        0.5 + Math.PI / 2,
        new ShapeGeometry(next).pageTransform("shape:c").orElseThrow().rotation(),
        1e-9);
  }

  @Test
  void anInfiniteOrMissingAngleIsRejected() {
    assertTrue(
        rotate
            .rejectedUnchecked(board, turn(Double.POSITIVE_INFINITY, "a"))
            .getMessage()
            .contains("finite"));
    assertTrue(
        rotate.rejectedUnchecked(board, turn(Double.NaN, "a")).getMessage().contains("degrees"));
    assertTrue(rotate.violations(new JsonObject().put("shapeIds", ids("a"))).isPresent());
  }

  @Test
  void theNormalizedActionKeepsDegrees() {
    assertEquals(90.0, rotate.sanitize(board, turn(450, "a")).params().getDouble("degrees"));
  }
}
