package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.assertBox;
import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.catalog.verbs.VerbHarness.record;
import static dev.canvasagent.support.TestShapes.arrow;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.draw;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.line;
import static dev.canvasagent.support.TestShapes.note;
import static dev.canvasagent.support.TestShapes.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.Box;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code resize}: positions scaled about an origin, sizes scaled the way each shape type keeps size. */
class ResizeVerbTest {
  final VerbHarness resize = new VerbHarness("resize");

  static JsonObject scale(double scaleX, double scaleY, String... shapes) {
    return new JsonObject()
        .put("shapeIds", ids(shapes))
        .put("scaleX", scaleX)
        .put("scaleY", scaleY);
  }

  static JsonObject props(Board board, String id) {
    return record(board, id).getJsonObject("props");
  }

  @Test
  void byDefaultShapesGrowFromTheirCombinedTopLeft() {
    Board board = board(geo("a", 100, 100, 100, 50), geo("b", 300, 100, 50, 50));
    Board next = resize.apply(board, scale(2, 3, "a", "b"));
    assertBox(new Box(100, 100, 300, 250), bounds(next, "a"));
    assertBox(new Box(500, 100, 600, 250), bounds(next, "b"));
  }

  @Test
  void positionsScaleAboutAGivenOrigin() {
    Board board = board(geo("a", 100, 100, 100, 50));
    Board next = resize.apply(board, scale(0.5, 0.5, "a").put("originX", 0).put("originY", 0));
    assertBox(new Box(50, 50, 100, 75), bounds(next, "a"));
  }

  @Test
  void textScalesInWidthOnlyAndStopsFittingItsWidthToItsText() {
    Board next = resize.apply(board(text("t", 0, 0, 100, "hi")), scale(2, 2, "t"));
    assertEquals(200.0, props(next, "t").getDouble("w"));
    assertFalse(props(next, "t").getBoolean("autoSize"));
  }

  @Test
  void aNoteScalesEvenlyByTheLargerFactor() {
    Board next = resize.apply(board(note("n", 0, 0)), scale(1.5, 3, "n"));
    assertEquals(3.0, props(next, "n").getDouble("scale"));
  }

  @Test
  void linesAndArrowsScaleTheirPoints() {
    Board board = board(line("l", 0, 0, 0, 0, 10, 20), arrow("ar", 0, 100, 40, 10));
    Board next = resize.apply(board, scale(2, 0.5, "l", "ar").put("originX", 0).put("originY", 0));
    JsonObject end = props(next, "l").getJsonObject("points").getJsonObject("p1");
    assertEquals(20.0, end.getDouble("x"));
    assertEquals(10.0, end.getDouble("y"));
    assertEquals("p1", end.getString("id"), "the point keeps its id and index");
    assertEquals(80.0, props(next, "ar").getJsonObject("end").getDouble("x"));
    assertEquals(5.0, props(next, "ar").getJsonObject("end").getDouble("y"));
    assertEquals(50.0, record(next, "ar").getDouble("y"));
  }

  @Test
  void aDrawingScalesThroughScaleXAndScaleY() {
    Board next = resize.apply(board(draw("d", 0, 0, 0, 0, 10, 10)), scale(2, 3, "d"));
    assertEquals(2.0, props(next, "d").getDouble("scaleX"));
    assertEquals(3.0, props(next, "d").getDouble("scaleY"));
    assertBox(new Box(0, 0, 20, 30), bounds(next, "d"));
  }

  @Test
  void aGroupScalesWhatItHolds() {
    Board board =
        board(
            group("g", 100, 100),
            in("g", geo("a", 0, 0, 10, 10)),
            in("g", geo("b", 20, 0, 10, 10)));
    Board next = resize.apply(board, scale(2, 2, "g"));
    assertBox(new Box(100, 100, 160, 120), bounds(next, "g"));
    assertEquals(40.0, record(next, "b").getDouble("x"));
    assertEquals(20.0, props(next, "b").getDouble("w"));
  }

  @Test
  void aFrameGrowsButKeepsItsChildrenAsTheyAre() {
    Board board = board(frame("f", 0, 0, 100, 100), in("f", geo("c", 10, 10, 10, 10)));
    Board next = resize.apply(board, scale(2, 2, "f"));
    assertEquals(200.0, props(next, "f").getDouble("w"));
    assertEquals(record(board, "c"), record(next, "c"));
  }

  @Test
  void negativeAndZeroFactorsAreRejected() {
    Board board = board(geo("a", 0, 0, 10, 10));
    assertTrue(resize.violations(scale(-1, 1, "a")).isPresent(), "the schema says > 0");
    assertTrue(
        resize
            .rejectedUnchecked(board, scale(-1, 1, "a"))
            .getMessage()
            .contains("scaleX must be greater than 0"));
    assertTrue(resize.rejectedUnchecked(board, scale(1, 0, "a")).getMessage().contains("scaleY"));
  }

  @Test
  void extremeFactorsAreClampedAndSizesStayWithinLimits() {
    Board board = board(geo("a", 0, 0, 50_000, 1), text("t", 0, 0, 1, "x"), note("n", 0, 0));
    Board big = resize.apply(board, scale(1e9, 1e9, "a", "t", "n"));
    assertEquals(100_000.0, props(big, "a").getDouble("w"));
    assertEquals(100.0, props(big, "a").getDouble("h"), "scaled by the clamped factor 100");
    assertEquals(100.0, props(big, "n").getDouble("scale"));

    Board small = resize.apply(board, scale(1e-9, 1e-9, "a", "t", "n"));
    assertEquals(500.0, props(small, "a").getDouble("w"));
    assertEquals(1.0, props(small, "a").getDouble("h"), "never below 1");
    assertEquals(1.0, props(small, "t").getDouble("w"));
    assertEquals(0.01, props(small, "n").getDouble("scale"));

    Board infinite =
        board.apply(
            resize.sanitizeUnchecked(board, scale(Double.POSITIVE_INFINITY, 1, "a")).diff(), 2);
    assertEquals(100_000.0, props(infinite, "a").getDouble("w"));
  }

  @Test
  void theNormalizedActionCarriesTheFactorsUsed() {
    JsonObject params =
        resize.sanitize(board(geo("a", 0, 0, 10, 10)), scale(1000, 2, "a")).params();
    assertEquals(100.0, params.getDouble("scaleX"));
    assertEquals(ids("shape:a"), params.getJsonArray("shapeIds"));
  }
}
