package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbFixtures.onlyPut;
import static dev.canvasagent.catalog.verbs.VerbFixtures.point;
import static dev.canvasagent.catalog.verbs.VerbFixtures.points;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.DrawPath;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RichText;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code create_shape} beyond boxes: frames, lines, drawings, arrows, rotation, limits and the session frame. */
class CreateShapeGeometryTest {
  Board board = Board.empty("room-1");
  CoordinateFrame frame = CoordinateFrame.atOrigin();

  JsonObject create(JsonObject params) {
    return onlyPut(VerbFixtures.sanitize("create_shape", params, board, frame));
  }

  void rejected(JsonObject params) {
    assertThrows(
        ActionRejected.class,
        () -> VerbFixtures.sanitize("create_shape", params, board, frame),
        params.encode());
  }

  static JsonObject shape(String type) {
    return new JsonObject().put("type", type);
  }

  static JsonArray array(List<JsonObject> items) {
    return new JsonArray(List.copyOf(items));
  }

  static JsonObject props(JsonObject record) {
    return record.getJsonObject("props");
  }

  static List<DrawPath.Point> decoded(JsonObject record, int segment) {
    return DrawPath.decode(
        props(record).getJsonArray("segments").getJsonObject(segment).getString("path"));
  }

  // Frames

  @Test
  void aFrameHasASizeAndAName() {
    JsonObject record =
        create(
            shape("frame")
                .put("x", 0)
                .put("y", 0)
                .put("text", "Q3")
                .put("props", new JsonObject().put("w", 800).put("h", 600).put("color", "blue")));
    assertEquals("frame", record.getString("type"));
    assertEquals(
        new JsonObject().put("w", 800.0).put("h", 600.0).put("name", "Q3").put("color", "blue"),
        props(record));
  }

  @Test
  void aFramesPropsNameWinsAndItHasDefaults() {
    JsonObject named =
        create(
            shape("section")
                .put("x", 0)
                .put("y", 0)
                .put("text", "t")
                .put("props", new JsonObject().put("name", "n")));
    assertEquals("n", props(named).getString("name"));
    JsonObject plain = create(shape("frame").put("x", 0).put("y", 0));
    assertEquals(
        new JsonObject().put("w", 320.0).put("h", 240.0).put("name", "").put("color", "black"),
        props(plain));
  }

  // Lines

  @Test
  void aLineStartsAtItsFirstPointWithHandlesRelativeToIt() {
    JsonObject record =
        create(
            shape("line")
                .put("points", array(points(100, 50, 200, 80, 150, 10)))
                .put("props", new JsonObject().put("spline", "cubic").put("dash", "dash")));

    assertEquals("line", record.getString("type"));
    assertEquals(100.0, record.getDouble("x"));
    assertEquals(50.0, record.getDouble("y"));
    JsonObject handles = props(record).getJsonObject("points");
    assertEquals(3, handles.size());
    List<String> keys = List.copyOf(handles.fieldNames());
    for (String key : keys) {
      JsonObject handle = handles.getJsonObject(key);
      assertEquals(key, handle.getString("id"));
      assertEquals(key, handle.getString("index"));
      assertTrue(FractionalIndex.isValid(key), key);
    }
    assertEquals(0.0, handles.getJsonObject(keys.get(0)).getDouble("x"));
    assertEquals(100.0, handles.getJsonObject(keys.get(1)).getDouble("x"));
    assertEquals(30.0, handles.getJsonObject(keys.get(1)).getDouble("y"));
    assertEquals(-40.0, handles.getJsonObject(keys.get(2)).getDouble("y"));
    assertTrue(keys.get(0).compareTo(keys.get(1)) < 0 && keys.get(1).compareTo(keys.get(2)) < 0);
    assertEquals("cubic", props(record).getString("spline"));
    assertEquals("dashed", props(record).getString("dash"));
  }

  @Test
  void aLineNeedsTwoPoints() {
    rejected(shape("line").put("points", array(points(0, 0))));
    rejected(shape("line").put("x", 0).put("y", 0));
  }

  @Test
  void aLineWithHugeCoordinatesIsClamped() {
    JsonObject record = create(shape("line").put("points", array(points(1e308, -1e308, 0, 0))));
    assertEquals(1_000_000.0, record.getDouble("x"));
    assertEquals(-1_000_000.0, record.getDouble("y"));
    JsonObject handles = props(record).getJsonObject("points");
    JsonObject last = handles.getJsonObject(List.copyOf(handles.fieldNames()).get(1));
    assertEquals(-1_000_000.0, last.getDouble("x"));
    assertEquals(1_000_000.0, last.getDouble("y"));
  }

  // Drawings

  @Test
  void aDrawingFromPointsDecodesBackRelativeToItsTopLeft() {
    JsonObject record =
        create(
            shape("draw")
                .put("points", array(points(50, 60, 90, 100, 70, 40)))
                .put("props", new JsonObject().put("color", "red").put("closed", true)));

    assertEquals("draw", record.getString("type"));
    assertEquals(50.0, record.getDouble("x"));
    assertEquals(40.0, record.getDouble("y"));
    assertEquals(true, props(record).getBoolean("isClosed"));
    assertEquals("red", props(record).getString("color"));
    List<DrawPath.Point> local = decoded(record, 0);
    assertEquals(3, local.size());
    assertEquals(0.0, local.get(0).x(), 1e-6);
    assertEquals(20.0, local.get(0).y(), 1e-6);
    assertEquals(40.0, local.get(1).x(), 1e-2);
    assertEquals(60.0, local.get(1).y(), 1e-2);
    assertEquals(20.0, local.get(2).x(), 1e-2);
    assertEquals(0.0, local.get(2).y(), 1e-2);
  }

  @Test
  void aDrawingFromSegmentsKeepsEachSegmentAndItsPressure() {
    JsonObject segments =
        new JsonObject()
            .put(
                "segments",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("type", "free")
                            .put(
                                "points",
                                array(
                                    List.of(
                                        point(0, 0).put("z", 0.2), point(10, 10).put("z", 0.9)))))
                    .add(
                        new JsonObject()
                            .put("type", "straight")
                            .put("points", array(points(100, 0, 100, 50))))
                    .add(
                        new JsonObject().put("type", "wiggly").put("points", array(points(5, 5)))));
    JsonObject record = create(shape("pen").put("props", segments));

    JsonArray encoded = props(record).getJsonArray("segments");
    assertEquals(3, encoded.size());
    assertEquals("free", encoded.getJsonObject(0).getString("type"));
    assertEquals("straight", encoded.getJsonObject(1).getString("type"));
    assertEquals(
        "free", encoded.getJsonObject(2).getString("type"), "an unknown segment type is free");
    assertEquals(0.2, decoded(record, 0).get(0).z(), 1e-6);
    assertEquals(0.9, decoded(record, 0).get(1).z(), 1e-3);
    assertEquals(100.0, decoded(record, 1).get(1).x(), 1e-2);
    assertEquals(50.0, decoded(record, 1).get(1).y(), 1e-2);
    for (Object segment : encoded) {
      assertEquals(
          java.util.Set.of("type", "path"),
          ((JsonObject) segment).fieldNames(),
          "tldraw 5's segment, no points");
    }
  }

  @Test
  void pressureIsClampedToZeroToOne() {
    JsonObject record =
        create(
            shape("draw")
                .put("points", array(List.of(point(0, 0).put("z", 7), point(1, 1).put("z", -3)))));
    assertEquals(1.0, decoded(record, 0).get(0).z(), 1e-6);
    assertEquals(0.0, decoded(record, 0).get(1).z(), 1e-3);
  }

  @Test
  void aDrawingNeedsPoints() {
    rejected(shape("draw").put("x", 0).put("y", 0));
    rejected(shape("draw").put("points", array(points(0, 0))));
  }

  @Test
  void aDrawingSpanningMoreThanTenThousandUnitsIsRejected() {
    rejected(shape("draw").put("points", array(points(0, 0, 10_000.5, 0))));
    rejected(
        shape("draw")
            .put(
                "props",
                new JsonObject()
                    .put(
                        "segments",
                        new JsonArray()
                            .add(new JsonObject().put("points", array(points(0, 0, 1, 1))))
                            .add(new JsonObject().put("points", array(points(0, 10_001, 1, 1)))))));
    assertEquals(
        "draw",
        create(shape("draw").put("points", array(points(0, 0, 10_000, -10_000))))
            .getString("type"));
  }

  @Test
  void aDrawingWithMoreThanTwoThousandPointsIsRejected() {
    List<JsonObject> half = IntStream.range(0, 1001).mapToObj(i -> point(i % 50, i % 7)).toList();
    rejected(
        shape("draw")
            .put(
                "props",
                new JsonObject()
                    .put(
                        "segments",
                        new JsonArray()
                            .add(new JsonObject().put("points", array(half)))
                            .add(new JsonObject().put("points", array(half))))));
    List<JsonObject> twoThousand =
        IntStream.range(0, 2000).mapToObj(i -> point(i % 50, i % 7)).toList();
    assertEquals(2000, decoded(create(shape("draw").put("points", array(twoThousand))), 0).size());
  }

  @Test
  void hugeDrawingCoordinatesAreClamped() {
    JsonObject far =
        create(shape("draw").put("points", array(points(1e308, -1e308, 1e308, -1e308))));
    assertEquals(1_000_000.0, far.getDouble("x"));
    assertEquals(-1_000_000.0, far.getDouble("y"));
    rejected(shape("draw").put("points", array(points(1e308, 0, -1e308, 0))));
  }

  // Arrows

  @Test
  void anArrowStartsAtStartAndEndsRelativeToIt() {
    JsonObject record =
        create(
            shape("connector")
                .put("start", point(100, 100))
                .put("end", point(250, 40))
                .put("text", "then"));
    assertEquals("arrow", record.getString("type"));
    assertEquals(100.0, record.getDouble("x"));
    assertEquals(100.0, record.getDouble("y"));
    assertEquals(
        new JsonObject().put("x", 0.0).put("y", 0.0), props(record).getJsonObject("start"));
    assertEquals(
        new JsonObject().put("x", 150.0).put("y", -60.0), props(record).getJsonObject("end"));
    assertEquals("then", RichText.plainText(props(record).getJsonObject("richText")));
  }

  @Test
  void anArrowFromPointsUsesTheFirstAndLast() {
    JsonObject record =
        create(
            shape("arrow")
                .put("points", array(points(0, 0, 50, 50, 10, 90)))
                .put(
                    "props",
                    new JsonObject().put("arrowheadStart", "circle").put("arrowheadEnd", "none")));
    assertEquals(
        new JsonObject().put("x", 10.0).put("y", 90.0), props(record).getJsonObject("end"));
    assertEquals("dot", props(record).getString("arrowheadStart"));
    assertEquals("none", props(record).getString("arrowheadEnd"));
  }

  @Test
  void anArrowNeedsBothEndsOrPoints() {
    rejected(shape("arrow").put("start", point(0, 0)));
    rejected(shape("arrow").put("x", 0).put("y", 0));
  }

  // Position and rotation

  @Test
  void boxesTextNotesAndFramesTakeBothXAndYOrNeither() {
    for (String type : List.of("rectangle", "text", "note", "frame")) {
      rejected(shape(type).put("x", 10));
      rejected(shape(type).put("y", 10));
    }
    // Neither: the server places it (ServerPlacementTest).
  }

  @Test
  void xAndYAreIgnoredForShapesPlacedByPoints() {
    JsonObject line =
        create(shape("line").put("x", 999).put("y", 999).put("points", array(points(1, 2, 3, 4))));
    assertEquals(1.0, line.getDouble("x"));
    assertEquals(2.0, line.getDouble("y"));
  }

  @Test
  void rotationIsGivenInDegreesAndStoredInRadians() {
    assertEquals(
        Math.PI / 2,
        create(shape("box").put("x", 0).put("y", 0).put("rotation", 90)).getDouble("rotation"),
        1e-12);
    assertEquals(
        Math.PI,
        create(shape("box").put("x", 0).put("y", 0).put("rotation", 540)).getDouble("rotation"),
        1e-12);
    assertEquals(
        -Math.PI / 6,
        create(shape("line").put("points", array(points(0, 0, 1, 1))).put("rotation", -30))
            .getDouble("rotation"),
        1e-12);
    double huge =
        create(shape("box").put("x", 0).put("y", 0).put("rotation", 1e308)).getDouble("rotation");
    assertTrue(Double.isFinite(huge) && Math.abs(huge) < 2 * Math.PI, String.valueOf(huge));
  }

  @Test
  void theSessionFramesOffsetIsApplied() {
    frame = new CoordinateFrame(1000, -500, Map.of());
    JsonObject box = create(shape("box").put("x", 10).put("y", 20));
    assertEquals(1010.0, box.getDouble("x"));
    assertEquals(-480.0, box.getDouble("y"));

    JsonObject line = create(shape("line").put("points", array(points(10, 20, 30, 60))));
    assertEquals(1010.0, line.getDouble("x"));
    assertEquals(-480.0, line.getDouble("y"));
    JsonObject handles = props(line).getJsonObject("points");
    assertEquals(
        20.0,
        handles.getJsonObject(List.copyOf(handles.fieldNames()).get(1)).getDouble("x"),
        "handles stay relative");

    JsonObject arrow = create(shape("arrow").put("start", point(0, 0)).put("end", point(5, 5)));
    assertEquals(1000.0, arrow.getDouble("x"));
    assertEquals(-500.0, arrow.getDouble("y"));
    assertEquals(new JsonObject().put("x", 5.0).put("y", 5.0), props(arrow).getJsonObject("end"));

    JsonObject draw = create(shape("draw").put("points", array(points(0, 0, 4, 4))));
    assertEquals(1000.0, draw.getDouble("x"));
    assertEquals(-500.0, draw.getDouble("y"));
  }

  // The schema

  @Test
  void theSchemaRefusesNumbersJsonCannotCarry() {
    for (double number :
        new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      assertTrue(
          VerbFixtures.violations("create_shape", shape("box").put("x", number).put("y", 0))
              .isPresent(),
          "x " + number);
      assertTrue(
          VerbFixtures.violations(
                  "create_shape", shape("line").put("points", array(points(0, 0, number, 1))))
              .isPresent());
      assertTrue(
          VerbFixtures.violations(
                  "update_shape", new JsonObject().put("shapeId", "a").put("rotation", number))
              .isPresent());
    }
  }

  @Test
  void theSchemaRejectsMalformedGeometry() {
    List<JsonObject> many = IntStream.range(0, 2001).mapToObj(i -> point(i, 0)).toList();
    assertTrue(
        VerbFixtures.violations("create_shape", shape("draw").put("points", array(many)))
            .isPresent(),
        "2001 points");
    assertTrue(
        VerbFixtures.violations("create_shape", shape("draw").put("points", new JsonArray()))
            .isPresent(),
        "no points");
    assertTrue(
        VerbFixtures.violations(
                "create_shape",
                shape("draw").put("points", new JsonArray().add(new JsonObject().put("x", 1))))
            .isPresent(),
        "a point without y");
    assertTrue(
        VerbFixtures.violations(
                "create_shape",
                shape("draw").put("points", new JsonArray().add(point(0, 0).put("w", 1))))
            .isPresent(),
        "an unknown point field");
    assertTrue(
        VerbFixtures.violations(
                "create_shape",
                shape("line").put("props", new JsonObject().put("spline", "bezier")))
            .isPresent(),
        "an unknown spline");
    assertTrue(
        VerbFixtures.violations(
                "create_shape", shape("arrow").put("start", point(0, 0).put("x", "a")))
            .isPresent());
    assertTrue(
        VerbFixtures.violations(
                "create_shape",
                shape("draw")
                    .put(
                        "props",
                        new JsonObject()
                            .put(
                                "segments",
                                new JsonArray().add(new JsonObject().put("type", "free")))))
            .isPresent(),
        "a segment without points");
    assertTrue(
        VerbFixtures.violations(
                "create_shape", shape("box").put("x", 0).put("y", 0).put("id", "no spaces"))
            .isPresent());
    assertTrue(
        VerbFixtures.violations(
                "create_shape",
                shape("box")
                    .put("x", 0)
                    .put("y", 0)
                    .put("props", new JsonObject().put("opacity", 0.5)))
            .isPresent());
    assertTrue(VerbFixtures.violations("create_shape", shape("")).isPresent());
    assertFalse(
        VerbFixtures.violations(
                "create_shape", shape("draw").put("points", array(many.subList(0, 2000))))
            .isPresent());
  }
}
