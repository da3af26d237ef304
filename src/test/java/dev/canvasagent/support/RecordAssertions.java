package dev.canvasagent.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * What every shape record a verb puts must still be for tldraw 5 to load it: every required field and
 * prop (and no others), w/h/scale above 0, finite numbers, a valid index and a parent that exists.
 */
public final class RecordAssertions {
  static final Set<String> SHAPE_FIELDS =
      Set.of(
          "id",
          "typeName",
          "type",
          "x",
          "y",
          "rotation",
          "index",
          "parentId",
          "isLocked",
          "opacity",
          "props",
          "meta");

  private static final Map<String, Set<String>> PROPS =
      Map.of(
          "geo", ShapeRecords.geoProps("rectangle", 1, 1, "").fieldNames(),
          "frame", ShapeRecords.frameProps(1, 1, "").fieldNames(),
          "note", ShapeRecords.noteProps("").fieldNames(),
          "text", ShapeRecords.textProps("", 1).fieldNames(),
          "arrow", ShapeRecords.arrowProps(1, 1, "").fieldNames(),
          "line", ShapeRecords.lineProps(new JsonObject()).fieldNames(),
          "draw", ShapeRecords.drawProps(new JsonArray(), false).fieldNames(),
          "group", Set.of());

  private RecordAssertions() {}

  /** Applies the diff and checks every record it puts against the board it makes. */
  public static Board assertValidDiff(Board board, RecordDiff diff) {
    assertEquals(
        java.util.Optional.empty(),
        BoardIntegrity.problem(board, diff),
        "the board stays whole (as the patch engine checks)");
    Board next = board.apply(diff, board.revision() + 1);
    diff.put().forEach(record -> assertValidShape(record, next));
    TldrawOracle.assertValid(diff.put());
    for (JsonObject record : next.records().values()) {
      if (!"shape".equals(record.getString("typeName"))) {
        continue;
      }
      String parent = record.getString("parentId");
      assertTrue(
          parent.startsWith("page:") || next.record(parent).isPresent(),
          record.getString("id") + " has a parent that is gone: " + parent);
    }
    return next;
  }

  public static void assertValidShape(JsonObject record, Board board) {
    String id = record.getString("id");
    assertEquals(SHAPE_FIELDS, record.fieldNames(), id);
    assertEquals("shape", record.getString("typeName"), id);
    for (String field : Set.of("x", "y", "rotation")) {
      double value = record.getDouble(field);
      assertTrue(
          Double.isFinite(value) && Math.abs(value) <= 1_000_000 + 1e-6,
          id + " " + field + " = " + value);
    }
    assertTrue(
        FractionalIndex.isValid(record.getString("index")),
        id + " index " + record.getString("index"));
    assertEquals(new JsonObject(), record.getJsonObject("meta"), id);
    JsonObject props = record.getJsonObject("props");
    Set<String> expected = PROPS.get(record.getString("type"));
    if (expected != null) {
      assertEquals(expected, props.fieldNames(), id + " props");
    }
    for (String positive : Set.of("w", "h", "scale")) {
      if (props.containsKey(positive)) {
        double value = props.getDouble(positive);
        assertTrue(value > 0 && Double.isFinite(value), id + " " + positive + " = " + value);
      }
    }
    for (String nonZero : Set.of("scaleX", "scaleY")) {
      if (props.containsKey(nonZero)) {
        double value = props.getDouble(nonZero);
        assertTrue(value != 0 && Double.isFinite(value), id + " " + nonZero + " = " + value);
      }
    }
    String parent = record.getString("parentId");
    assertTrue(
        parent.startsWith("page:")
            || board
                .record(parent)
                .map(p -> Set.of("frame", "group").contains(p.getString("type")))
                .orElse(false),
        id + " parent " + parent);
  }
}
