package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Verbs as the sanitizer runs them (schema first, then the verb), and boards to run them against. */
final class VerbFixtures {
  static final ActionCatalog CATALOG = ActionCatalog.standard();

  private VerbFixtures() {}

  static ActionCatalog.Entry entry(String verb) {
    return CATALOG.entry(verb).orElseThrow();
  }

  static Optional<String> violations(String verb, JsonObject params) {
    return entry(verb).schema().violations(params);
  }

  /** Params that must pass the verb's schema, sanitized against the board, at the page origin, brand palette on. */
  static SanitizedAction sanitize(String verb, JsonObject params, Board board) {
    return sanitize(verb, params, board, CoordinateFrame.atOrigin());
  }

  static SanitizedAction sanitize(
      String verb, JsonObject params, Board board, CoordinateFrame frame) {
    assertEquals(
        Optional.empty(),
        violations(verb, params),
        "the " + verb + " schema accepts " + params.encode());
    return entry(verb).verb().sanitize(params, new ActionContext(board, frame, true));
  }

  /** The one record a board verb puts, with nothing removed. */
  static JsonObject onlyPut(SanitizedAction sanitized) {
    assertEquals(List.of(), sanitized.diff().remove());
    assertEquals(1, sanitized.diff().put().size(), sanitized.diff().toJson().encode());
    return sanitized.diff().put().get(0);
  }

  static Board boardOf(JsonObject... records) {
    return Board.empty("room-1").apply(RecordDiff.putting(records), 1);
  }

  static JsonObject geo(String id, double x, double y) {
    return ShapeRecords.shape(
        "shape:" + id, "geo", x, y, "a1", ShapeRecords.geoProps("rectangle", 100, 80, "box"));
  }

  static JsonObject text(String id) {
    return ShapeRecords.shape(
        "shape:" + id, "text", 0, 0, "a2", ShapeRecords.textProps("words", 120));
  }

  static JsonObject note(String id) {
    return ShapeRecords.shape("shape:" + id, "note", 0, 0, "a3", ShapeRecords.noteProps("sticky"));
  }

  static JsonObject frame(String id) {
    return ShapeRecords.shape(
        "shape:" + id, "frame", 0, 0, "a4", ShapeRecords.frameProps(400, 300, "Frame"));
  }

  static JsonObject line(String id) {
    JsonObject points =
        new JsonObject()
            .put(
                "a0",
                new JsonObject().put("id", "a0").put("index", "a0").put("x", 0.0).put("y", 0.0))
            .put(
                "a1",
                new JsonObject().put("id", "a1").put("index", "a1").put("x", 50.0).put("y", 10.0));
    return ShapeRecords.shape("shape:" + id, "line", 0, 0, "a5", ShapeRecords.lineProps(points));
  }

  static JsonObject arrow(String id) {
    return ShapeRecords.shape(
        "shape:" + id, "arrow", 0, 0, "a6", ShapeRecords.arrowProps(100, 0, ""));
  }

  /** {@code record} placed inside {@code parentId}. */
  static JsonObject child(JsonObject record, String parentId) {
    return record.copy().put("parentId", parentId);
  }

  /** An arrow binding record as tldraw 5 stores it, one per bound end. */
  static JsonObject binding(String id, String arrowId, String targetId, String terminal) {
    return dev.canvasagent.support.TestShapes.bound(id, arrowId, terminal, targetId);
  }

  static JsonObject point(double x, double y) {
    return new JsonObject().put("x", x).put("y", y);
  }

  static List<JsonObject> points(double... xy) {
    List<JsonObject> points = new ArrayList<>();
    for (int i = 0; i < xy.length; i += 2) {
      points.add(point(xy[i], xy[i + 1]));
    }
    return points;
  }
}
