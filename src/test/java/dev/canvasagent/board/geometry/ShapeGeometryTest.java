package dev.canvasagent.board.geometry;

import static dev.canvasagent.support.TestShapes.arrow;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.draw;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.line;
import static dev.canvasagent.support.TestShapes.note;
import static dev.canvasagent.support.TestShapes.rotated;
import static dev.canvasagent.support.TestShapes.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RichText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Page transforms and page bounds for every shape type, through rotated and nested parents. */
class ShapeGeometryTest {
  static final double EPSILON = 1e-6;

  static Box bounds(Board board, String id) {
    return new ShapeGeometry(board).pageBounds("shape:" + id).orElseThrow();
  }

  static void assertBox(Box expected, Box actual) {
    String message = "expected " + expected + " but was " + actual;
    assertEquals(expected.minX(), actual.minX(), EPSILON, message);
    assertEquals(expected.minY(), actual.minY(), EPSILON, message);
    assertEquals(expected.maxX(), actual.maxX(), EPSILON, message);
    assertEquals(expected.maxY(), actual.maxY(), EPSILON, message);
  }

  // Shape types

  @Test
  void aGeoIsItsBoxWithGrowYAddedToItsHeight() {
    JsonObject box = geo("box", 10, 20, 100, 50);
    box.getJsonObject("props").put("growY", 10.0);
    assertBox(new Box(10, 20, 110, 80), bounds(board(box), "box"));
  }

  @Test
  void aFrameIsItsBox() {
    assertBox(new Box(-5, 0, 395, 300), bounds(board(frame("f", -5, 0, 400, 300)), "f"));
  }

  @Test
  void aNoteIs200SquareTimesItsScaleWithGrowY() {
    JsonObject sticky = note("n", 0, 0);
    sticky.getJsonObject("props").put("scale", 2.0).put("growY", 20.0);
    assertBox(new Box(0, 0, 400, 440), bounds(board(sticky), "n"));
  }

  @Test
  void textIsItsWidthByOneEstimatedLinePerParagraph() {
    assertBox(new Box(0, 0, 150, 64), bounds(board(text("t", 0, 0, 150, "one\ntwo")), "t"));

    JsonObject large = text("big", 0, 0, 100, "one");
    large.getJsonObject("props").put("size", "xl").put("scale", 2.0);
    assertBox(new Box(0, 0, 200, 120), bounds(board(large), "big"));
  }

  @Test
  void anArrowIsTheBoxOfItsEndsRelativeToItsPosition() {
    assertBox(new Box(50, 100, 100, 130), bounds(board(arrow("a", 100, 100, -50, 30)), "a"));
  }

  @Test
  void aLineIsTheBoxOfItsPoints() {
    assertBox(new Box(5, 10, 35, 50), bounds(board(line("l", 10, 10, -5, 0, 25, 40, 0, 20)), "l"));
  }

  @Test
  void aDrawingIsTheBoxOfItsDecodedPointsTimesItsScale() {
    JsonObject stroke = draw("d", 100, 100, 0, 0, 10, 5, 20, -4);
    assertBox(new Box(100, 96, 120, 105), bounds(board(stroke.copy()), "d"));

    stroke.getJsonObject("props").put("scaleX", 2.0).put("scaleY", 0.5);
    assertBox(new Box(100, 98, 140, 102.5), bounds(board(stroke), "d"));
  }

  @Test
  void aGroupIsTheUnionOfItsChildren() {
    Board board =
        board(
            group("g", 100, 100),
            in("g", geo("a", 0, 0, 10, 10)),
            in("g", geo("b", 50, 20, 10, 10)));
    assertBox(new Box(100, 100, 160, 130), bounds(board, "g"));
  }

  @Test
  void aGroupDoesNotReachIntoAFramesClippedChildren() {
    Board board =
        board(
            group("g", 0, 0),
            in("g", frame("f", 0, 0, 100, 100)),
            in("f", geo("outside", 500, 500, 10, 10)));
    assertBox(new Box(0, 0, 100, 100), bounds(board, "g"));
  }

  @Test
  void anEmptyGroupHasNoBounds() {
    assertEquals(
        Optional.empty(), new ShapeGeometry(board(group("g", 0, 0))).pageBounds("shape:g"));
  }

  // Rotation and nesting

  @Test
  void aRotatedShapesBoundsAreTheBoxAroundItsRotatedCorners() {
    Board board = board(rotated(Math.PI / 2, geo("box", 0, 0, 100, 50)));
    assertBox(new Box(-50, 0, 0, 100), bounds(board, "box"));

    Board diamond = board(rotated(Math.PI / 4, geo("sq", 0, 0, 10, 10)));
    double half = 10 / Math.sqrt(2);
    assertBox(new Box(-half, 0, half, 2 * half), bounds(diamond, "sq"));
  }

  @Test
  void aChildIsPlacedThroughItsParentsPositionAndRotation() {
    Board board =
        board(
            rotated(Math.PI / 2, frame("f", 100, 100, 200, 200)),
            in("f", geo("child", 10, 0, 20, 10)));
    ShapeGeometry geometry = new ShapeGeometry(board);

    Transform page = geometry.pageTransform("shape:child").orElseThrow();
    assertEquals(100, page.x(), EPSILON);
    assertEquals(110, page.y(), EPSILON);
    assertEquals(Math.PI / 2, page.rotation(), EPSILON);
    assertBox(new Box(90, 110, 100, 130), geometry.pageBounds("shape:child").orElseThrow());
  }

  @Test
  void boundsCanBeTakenAlongAParentsAxes() {
    Board board =
        board(
            rotated(Math.PI / 2, frame("f", 100, 100, 200, 200)),
            in("f", geo("child", 10, 0, 20, 10)));
    ShapeGeometry geometry = new ShapeGeometry(board);
    Transform frame = geometry.pageTransform("shape:f").orElseThrow();
    assertBox(new Box(10, 0, 30, 10), geometry.boundsIn("shape:child", frame).orElseThrow());
  }

  @Test
  void aTransformUndoesItself() {
    Transform space = new Transform(30, -20, 1.1);
    Vec point = new Vec(7, 11);
    Vec back = space.applyInverse(space.apply(point));
    assertEquals(point.x(), back.x(), EPSILON);
    assertEquals(point.y(), back.y(), EPSILON);

    Transform child = new Transform(5, 6, 0.3);
    Transform relative = space.then(child).relativeTo(space);
    assertEquals(child.x(), relative.x(), EPSILON);
    assertEquals(child.y(), relative.y(), EPSILON);
    assertEquals(child.rotation(), relative.rotation(), EPSILON);
  }

  // Depth, cycles and garbage

  static List<JsonObject> nestedGroups(int depth) {
    List<JsonObject> records = new ArrayList<>();
    records.add(group("g0", 10, 10));
    for (int level = 1; level < depth; level++) {
      records.add(in("g" + (level - 1), group("g" + level, 1, 0)));
    }
    records.add(in("g" + (depth - 1), geo("leaf", 0, 0, 10, 10)));
    return records;
  }

  @Test
  void groupsFiftyDeepAreMeasuredWithoutRecursion() {
    Board board = board(nestedGroups(50));
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          assertBox(new Box(59, 10, 69, 20), bounds(board, "leaf"));
          assertBox(new Box(59, 10, 69, 20), bounds(board, "g0"));
        });
  }

  @Test
  void nestingDeeperThanTheLimitIsNotMeasured() {
    ShapeGeometry geometry = new ShapeGeometry(board(nestedGroups(ShapeTree.MAX_DEPTH + 50)));
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          assertEquals(Optional.empty(), geometry.pageBounds("shape:leaf"));
          assertEquals(
              Optional.empty(), geometry.pageBounds("shape:g0"), "its descendants are too deep");
          assertTrue(
              geometry.pageBounds("shape:g" + ShapeTree.MAX_DEPTH).isPresent(),
              "exactly at the limit");
          assertTrue(
              geometry.pageBounds("shape:g" + (ShapeTree.MAX_DEPTH + 1)).isEmpty(),
              "one past the limit");
        });
  }

  @Test
  void aParentCycleIsNotMeasuredAndDoesNotHang() {
    Board board =
        board(in("b", group("a", 0, 0)), in("a", group("b", 0, 0)), in("a", geo("c", 0, 0, 5, 5)));
    ShapeGeometry geometry = new ShapeGeometry(board);
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          assertEquals(Optional.empty(), geometry.pageBounds("shape:a"));
          assertEquals(Optional.empty(), geometry.pageBounds("shape:c"));
          assertEquals(Optional.empty(), geometry.tree().ancestors("shape:c"));
        });
  }

  @Test
  void aShapeWhoseParentIsMissingIsNotMeasured() {
    assertEquals(
        Optional.empty(),
        new ShapeGeometry(board(in("gone", geo("a", 0, 0, 5, 5)))).pageBounds("shape:a"));
  }

  @Test
  void anUnknownIdOrARecordThatIsNotAShapeIsNotMeasured() {
    JsonObject binding = new JsonObject().put("id", "shape:b").put("typeName", "binding");
    ShapeGeometry geometry = new ShapeGeometry(board(binding));
    assertEquals(Optional.empty(), geometry.pageBounds("shape:b"));
    assertEquals(Optional.empty(), geometry.pageBounds("shape:nothing"));
  }

  @Test
  void valuesThatAreNotFiniteNumbersFallBackInsteadOfFailing() {
    JsonObject box = geo("box", 0, 0, 100, 50);
    box.put("x", "left").put("rotation", Double.NaN);
    box.getJsonObject("props").put("w", -3).put("h", "tall");
    assertBox(new Box(0, 0, 1, 1), bounds(board(box), "box"));

    JsonObject stroke = draw("d", 0, 0, 0, 0, 5, 5);
    stroke
        .getJsonObject("props")
        .put(
            "segments", new JsonArray().add(new JsonObject().put("path", "%%not base64")).add("x"));
    assertBox(new Box(0, 0, 0, 0), bounds(board(stroke), "d"));
  }

  @Test
  void lineCountingCountsParagraphsAndHardBreaksAndSurvivesGarbage() {
    assertEquals(3, ShapeOutline.lineCount(RichText.of("a\nb\nc")));
    JsonObject withBreak =
        new JsonObject()
            .put("type", "doc")
            .put(
                "content",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("type", "paragraph")
                            .put(
                                "content",
                                new JsonArray()
                                    .add(new JsonObject().put("type", "text").put("text", "a"))
                                    .add(new JsonObject().put("type", "hardBreak")))));
    assertEquals(2, ShapeOutline.lineCount(withBreak));
    assertEquals(1, ShapeOutline.lineCount("not rich text"));
    assertEquals(
        1,
        ShapeOutline.lineCount(new JsonObject().put("content", new JsonArray().add(3).add("x"))));
  }
}
