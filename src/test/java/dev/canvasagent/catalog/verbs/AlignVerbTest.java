package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.assertBox;
import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code align}: edges and centres lined up by the shapes' real page bounds. */
class AlignVerbTest {
  final VerbHarness align = new VerbHarness("align");
  final Board board =
      board(geo("a", 0, 0, 100, 50), geo("b", 200, 100, 40, 20), geo("c", 50, 300, 10, 10));

  static JsonObject alignment(String alignment, String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes)).put("alignment", alignment);
  }

  @ParameterizedTest
  @CsvSource({
    "left, 0, 0, 0",
    "right, 140, 200, 230",
    "center-horizontal, 70, 100, 115",
    "top, 0, 0, 0",
    "bottom, 260, 290, 300",
    "center-vertical, 130, 145, 150"
  })
  void eachShapeLinesUpOnTheCommonEdgeOrCentre(String alignment, double a, double b, double c) {
    Board next = align.apply(board, alignment(alignment, "a", "b", "c"));
    boolean horizontal =
        alignment.equals("left")
            || alignment.equals("right")
            || alignment.equals("center-horizontal");
    assertEquals(a, horizontal ? bounds(next, "a").minX() : bounds(next, "a").minY(), 1e-9, "a");
    assertEquals(b, horizontal ? bounds(next, "b").minX() : bounds(next, "b").minY(), 1e-9, "b");
    assertEquals(c, horizontal ? bounds(next, "c").minX() : bounds(next, "c").minY(), 1e-9, "c");
    assertEquals(
        bounds(board, "a").minY(),
        horizontal ? bounds(next, "a").minY() : bounds(board, "a").minY(),
        "the other axis stays");
  }

  @Test
  void aRotatedShapeAlignsByWhatIsSeen() {
    Board mixed = board(geo("a", 0, 0, 100, 50), rotated(Math.PI / 2, geo("r", 300, 300, 100, 50)));
    Board next = align.apply(mixed, alignment("left", "a", "r"));
    assertEquals(0.0, bounds(next, "r").minX(), 1e-9);
    assertEquals(50.0, next.record("shape:r").orElseThrow().getDouble("x"), 1e-9);
  }

  @Test
  void aShapeInAFrameAlignsWithShapesOnThePage() {
    Board nested =
        board(
            geo("a", 0, 0, 100, 50),
            rotated(Math.PI, frame("f", 500, 500, 200, 200)),
            in("f", geo("c", 10, 10, 20, 20)));
    Board next = align.apply(nested, alignment("top", "a", "c"));
    assertEquals(0.0, bounds(next, "c").minY(), 1e-9);
    assertBox(bounds(nested, "a"), bounds(next, "a"));
  }

  @Test
  void fewerThanTwoDifferentShapesAreRejected() {
    assertTrue(align.violations(alignment("left", "a")).isPresent(), "the schema wants two");
    assertTrue(
        align.rejected(board, alignment("left", "a", "a")).getMessage().contains("at least 2"));
    Board grouped = board(group("g", 0, 0), in("g", geo("c", 10, 0, 10, 10)));
    assertTrue(
        align
            .rejected(grouped, alignment("left", "g", "c"))
            .getMessage()
            .contains("inside one another"));
  }

  @Test
  void anUnknownAlignmentIsRefused() {
    assertTrue(align.violations(alignment("middle", "a", "b")).isPresent());
    assertTrue(
        align
            .rejectedUnchecked(board, alignment("middle", "a", "b"))
            .getMessage()
            .contains("middle"));
  }
}
