package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.assertBox;
import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.Box;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code place}: a shape beside a reference shape, by both shapes' real bounds. */
class PlaceVerbTest {
  final VerbHarness place = new VerbHarness("place");

  /** The reference is 200 × 100 at (100, 100); the shape is 40 × 20, far away. */
  final Board board = board(geo("ref", 100, 100, 200, 100), geo("s", 900, 900, 40, 20));

  static JsonObject placing(String side, String align) {
    JsonObject params =
        new JsonObject().put("shapeId", "s").put("referenceShapeId", "ref").put("side", side);
    return align == null ? params : params.put("align", align);
  }

  @ParameterizedTest
  @CsvSource({
    "top, start, 100, 70",
    "top, center, 180, 70",
    "top, end, 260, 70",
    "bottom, start, 100, 210",
    "right, start, 310, 100",
    "right, center, 310, 140",
    "left, end, 50, 180"
  })
  void besideTheReferenceWithTheOffsetAndAlignment(String side, String align, double x, double y) {
    Board next = place.apply(board, placing(side, align).put("sideOffset", 10));
    assertBox(Box.of(x, y, 40, 20), bounds(next, "s"));
  }

  @Test
  void alignmentDefaultsToTheCentreAndTheAlignOffsetShiftsAlongTheSide() {
    assertBox(Box.of(180, 200, 40, 20), bounds(place.apply(board, placing("bottom", null)), "s"));
    assertBox(
        Box.of(105, 200, 40, 20),
        bounds(place.apply(board, placing("bottom", "start").put("alignOffset", 5)), "s"));
    // At the end the offset points back towards the middle, as in the agent kit.
    assertBox(
        Box.of(255, 200, 40, 20),
        bounds(place.apply(board, placing("bottom", "end").put("alignOffset", 5)), "s"));
  }

  @Test
  void rotatedShapesArePlacedByWhatIsSeen() {
    Board rotatedBoard =
        board(
            rotated(Math.PI / 2, geo("ref", 300, 100, 200, 100)),
            rotated(Math.PI / 2, geo("s", 900, 900, 40, 20)));
    Board next = place.apply(rotatedBoard, placing("right", "start"));
    assertBox(Box.of(300, 100, 20, 40), bounds(next, "s"));
  }

  @Test
  void aShapeInAFramePlacesOnThePage() {
    Board framed =
        board(
            geo("ref", 100, 100, 200, 100),
            rotated(Math.PI, frame("f", 800, 800, 400, 400)),
            in("f", geo("s", 10, 10, 40, 20)));
    Board next = place.apply(framed, placing("top", "start"));
    assertBox(Box.of(100, 80, 40, 20), bounds(next, "s"));
  }

  @Test
  void offsetsAreKeptInRange() {
    assertTrue(place.violations(placing("top", "start").put("sideOffset", -5)).isPresent());
    Board touching =
        board.apply(
            place
                .sanitizeUnchecked(board, placing("bottom", "start").put("sideOffset", -500))
                .diff(),
            2);
    assertBox(Box.of(100, 200, 40, 20), bounds(touching, "s"));
    Board far =
        place.apply(
            board, placing("bottom", "start").put("sideOffset", 1e300).put("alignOffset", -1e300));
    assertBox(Box.of(-9_900, 10_200, 40, 20), bounds(far, "s"));
  }

  @Test
  void bothShapesAreReferencedAndMustExist() {
    assertEquals(
        Set.of("shape:s", "shape:ref"), place.entry.verb().referencedShapes(placing("top", null)));
    JsonObject ghost = placing("top", null).put("referenceShapeId", "ghost");
    assertEquals("unknown shape 'ghost'", place.rejected(board, ghost).getMessage());
  }

  @Test
  void aShapeCannotBePlacedBesideItselfOrWhatContainsIt() {
    assertTrue(
        place
            .rejected(board, placing("top", null).put("referenceShapeId", "shape:s"))
            .getMessage()
            .contains("same shape"));
    Board grouped =
        board(group("g", 0, 0), in("g", geo("c", 0, 0, 10, 10)), in("g", geo("d", 50, 0, 10, 10)));
    place.rejected(
        grouped,
        new JsonObject().put("shapeId", "c").put("referenceShapeId", "g").put("side", "left"));
    place.rejected(
        grouped,
        new JsonObject().put("shapeId", "g").put("referenceShapeId", "d").put("side", "left"));
  }

  @Test
  void anUnknownSideIsRefused() {
    assertTrue(place.violations(placing("above", null)).isPresent());
    assertTrue(
        place.rejectedUnchecked(board, placing("above", null)).getMessage().contains("above"));
    assertTrue(
        place.rejectedUnchecked(board, placing("top", "middle")).getMessage().contains("middle"));
  }
}
