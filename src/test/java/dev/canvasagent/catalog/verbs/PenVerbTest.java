package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbFixtures.boardOf;
import static dev.canvasagent.catalog.verbs.VerbFixtures.geo;
import static dev.canvasagent.catalog.verbs.VerbFixtures.onlyPut;
import static dev.canvasagent.catalog.verbs.VerbFixtures.point;
import static dev.canvasagent.catalog.verbs.VerbFixtures.points;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.DrawPath;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code pen}: a freehand stroke as a tldraw 5 draw shape whose path decodes back to the model's points. */
class PenVerbTest {
  Board board = Board.empty("room-1");
  CoordinateFrame frame = CoordinateFrame.atOrigin();

  SanitizedAction sanitize(JsonObject params) {
    return VerbFixtures.sanitize("pen", params, board, frame);
  }

  JsonObject stroke(JsonObject params) {
    return onlyPut(sanitize(params));
  }

  static JsonObject pen(List<JsonObject> points) {
    return new JsonObject().put("points", new JsonArray(List.copyOf(points)));
  }

  static JsonArray segments(JsonObject record) {
    return record.getJsonObject("props").getJsonArray("segments");
  }

  /** The stroke's points in page space: the decoded path moved by the record's x, y. */
  static List<double[]> pagePoints(JsonObject record, int segment) {
    double x = record.getDouble("x");
    double y = record.getDouble("y");
    return DrawPath.decode(segments(record).getJsonObject(segment).getString("path")).stream()
        .map(p -> new double[] {p.x() + x, p.y() + y, p.z()})
        .toList();
  }

  /** Float16 keeps 11 significant bits of every delta; errors add up along the stroke. */
  static void assertDecodesTo(List<double[]> expected, List<double[]> actual) {
    assertEquals(expected.size(), actual.size());
    double tolerance = 1e-3;
    for (int i = 0; i < expected.size(); i++) {
      if (i > 0) {
        tolerance +=
            (Math.abs(expected.get(i)[0] - expected.get(i - 1)[0])
                    + Math.abs(expected.get(i)[1] - expected.get(i - 1)[1]))
                * Math.pow(2, -11);
      }
      assertEquals(expected.get(i)[0], actual.get(i)[0], tolerance, "x of point " + i);
      assertEquals(expected.get(i)[1], actual.get(i)[1], tolerance, "y of point " + i);
    }
  }

  static List<double[]> xy(double... xy) {
    java.util.ArrayList<double[]> list = new java.util.ArrayList<>();
    for (int i = 0; i < xy.length; i += 2) {
      list.add(new double[] {xy[i], xy[i + 1]});
    }
    return list;
  }

  @Test
  void aStrokeIsACompleteDrawShapeAtItsTopLeft() {
    JsonObject record = stroke(pen(points(100, 200, 140, 230, 180, 190)));

    assertEquals("draw", record.getString("type"));
    assertEquals(100.0, record.getDouble("x"));
    assertEquals(190.0, record.getDouble("y"));
    assertTrue(FractionalIndex.isValid(record.getString("index")));
    assertEquals("page:page", record.getString("parentId"));
    JsonObject props = record.getJsonObject("props");
    assertEquals(false, props.getBoolean("isClosed"));
    assertEquals(true, props.getBoolean("isComplete"));
    assertEquals(1, segments(record).size());
    assertEquals("free", segments(record).getJsonObject(0).getString("type"));
    assertTrue(record.getString("id").startsWith("shape:ag:"), record.getString("id"));
  }

  @Test
  void thePathDecodesBackToTheGivenPoints() {
    JsonObject record =
        stroke(pen(points(100, 200, 140.3, 230.7, 180.01, 190.5, 90.25, 420.125, 333.3, 111.1)));
    assertDecodesTo(
        xy(100, 200, 140.3, 230.7, 180.01, 190.5, 90.25, 420.125, 333.3, 111.1),
        pagePoints(record, 0));
  }

  @Test
  void everyPointHasThePensDefaultPressure() {
    for (double[] point : pagePoints(stroke(pen(points(0, 0, 10, 10, 20, 0))), 0)) {
      assertEquals(DrawPath.DEFAULT_PRESSURE, point[2], 1e-3);
    }
  }

  @Test
  void aClosedStrokeEndsAtItsFirstPoint() {
    JsonObject record = stroke(pen(points(0, 0, 100, 0, 50, 80)).put("closed", true));

    assertEquals(true, record.getJsonObject("props").getBoolean("isClosed"));
    List<double[]> decoded = pagePoints(record, 0);
    assertDecodesTo(xy(0, 0, 100, 0, 50, 80, 0, 0), decoded);
  }

  @Test
  void aStraightStyleMakesStraightSegments() {
    assertEquals(
        "straight",
        segments(stroke(pen(points(0, 0, 100, 0)).put("style", "straight")))
            .getJsonObject(0)
            .getString("type"));
    assertEquals(
        "free",
        segments(stroke(pen(points(0, 0, 100, 0)).put("style", "smooth")))
            .getJsonObject(0)
            .getString("type"));
  }

  @Test
  void stylesAreNormalizedAndOnlyDrawPropsSet() {
    JsonObject props =
        stroke(
                pen(points(0, 0, 100, 0))
                    .put("color", "burnt orange")
                    .put("fill", "semi transparent")
                    .put("dash", "dot")
                    .put("size", "large"))
            .getJsonObject("props");
    assertEquals("orange", props.getString("color"));
    assertEquals("semi", props.getString("fill"));
    assertEquals("dotted", props.getString("dash"));
    assertEquals("l", props.getString("size"));

    JsonObject partial =
        stroke(pen(points(0, 0, 100, 0)).put("color", "yel")).getJsonObject("props");
    assertEquals("black", partial.getString("color"));
  }

  @Test
  void theSessionFramesOriginIsApplied() {
    frame = new CoordinateFrame(1000, -500, Map.of());
    JsonObject record = stroke(pen(points(10, 20, 30, 60)));
    assertEquals(1010.0, record.getDouble("x"));
    assertEquals(-480.0, record.getDouble("y"));
    assertDecodesTo(xy(1010, -480, 1030, -440), pagePoints(record, 0));
  }

  @Test
  void theNewStrokeGoesOnTopOfThePage() {
    board = boardOf(geo("box1", 0, 0));
    String top = board.record("shape:box1").orElseThrow().getString("index");
    assertTrue(stroke(pen(points(0, 0, 1, 1))).getString("index").compareTo(top) > 0);
  }

  @Test
  void aStrokeSpanningMoreThanTenThousandUnitsIsRejected() {
    assertThrows(ActionRejected.class, () -> sanitize(pen(points(0, 0, 10_001, 0))));
    assertThrows(ActionRejected.class, () -> sanitize(pen(points(0, 0, 0, -10_001))));
    assertEquals("draw", stroke(pen(points(0, 0, 10_000, 10_000))).getString("type"));
  }

  @Test
  void hugeCoordinatesAreClampedAndThenTooWide() {
    assertThrows(ActionRejected.class, () -> sanitize(pen(points(1e308, 0, -1e308, 0))));
    JsonObject far = stroke(pen(points(1e308, 1e308, 1e308, 1e308)));
    assertEquals(1_000_000.0, far.getDouble("x"));
    assertEquals(1_000_000.0, far.getDouble("y"));
  }

  @Test
  void theSchemaWantsTwoToTwoThousandPoints() {
    assertTrue(VerbFixtures.violations("pen", pen(points(0, 0))).isPresent());
    assertTrue(VerbFixtures.violations("pen", new JsonObject()).isPresent());
    JsonObject tooMany =
        pen(java.util.stream.IntStream.range(0, 2001).mapToObj(i -> point(i, 0)).toList());
    assertTrue(VerbFixtures.violations("pen", tooMany).isPresent());
    assertTrue(
        VerbFixtures.violations("pen", pen(points(0, 0, 1, 1)).put("style", "wavy")).isPresent());
    assertTrue(
        VerbFixtures.violations("pen", pen(List.of(point(0, 0), new JsonObject().put("x", 1))))
            .isPresent());
  }

  @Test
  void twoThousandPointsAreAcceptedOpenOrClosed() {
    List<JsonObject> many =
        java.util.stream.IntStream.range(0, 2000).mapToObj(i -> point(i % 100, i / 100)).toList();
    assertEquals(
        2000,
        DrawPath.decode(segments(stroke(pen(many))).getJsonObject(0).getString("path")).size());
    JsonObject closed = stroke(pen(many).put("closed", true));
    assertEquals(
        2001,
        DrawPath.decode(segments(closed).getJsonObject(0).getString("path")).size(),
        "the closing point is the verb's, not the model's");
  }
}
