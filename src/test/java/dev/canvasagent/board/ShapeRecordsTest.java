package dev.canvasagent.board;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Every kind of record ShapeRecords builds is one tldraw 5.4.2 loads, and one the validator lets in. */
class ShapeRecordsTest {
  private static final List<String> LABELS =
      List.of(
          "",
          "Hello",
          "Hello\nworld",
          "trailing newline\n",
          "\n\nblank lines",
          "ünïcödé ✓ 漢字 🙂",
          "quotes \" and \\ backslashes",
          "x".repeat(2_000));

  @Test
  void everyRecordShapeRecordsBuildsIsValidForTldrawAndTheValidator() {
    List<JsonObject> records = buildable();

    TldrawOracle.assertValid(records);
    for (JsonObject record : records) {
      assertEquals(Optional.empty(), TldrawRecordValidator.check(record), record.encode());
    }
  }

  @Test
  void aNewNoteHasNoFontAdjustmentAsTldrawMakesIt() {
    // A ratio since note v12: 1 leaves the font as it is; tldraw's NoteShapeUtil default is 1, and
    // 0 would draw the label at font size 0.
    assertEquals(1.0, ShapeRecords.noteProps("x").getDouble("fontSizeAdjustment"));
  }

  private static List<JsonObject> buildable() {
    List<JsonObject> records = new ArrayList<>();
    String index = null;
    int n = 0;
    for (String geo : new TreeSet<>(TldrawStyles.GEOS)) {
      for (String label : LABELS) {
        index = FractionalIndex.after(index);
        records.add(
            ShapeRecords.shape(
                "shape:geo" + n++,
                "geo",
                -120.25,
                3e4,
                index,
                ShapeRecords.geoProps(geo, 0.5, 4000, label)));
      }
    }
    for (String label : LABELS) {
      index = FractionalIndex.after(index);
      records.add(
          ShapeRecords.shape(
              "shape:text" + n++, "text", 0, 0, index, ShapeRecords.textProps(label, 1)));
      records.add(
          ShapeRecords.shape(
              "shape:note" + n++, "note", 0, 0, index, ShapeRecords.noteProps(label)));
      records.add(
          ShapeRecords.shape(
              "shape:arrow" + n++, "arrow", 0, 0, index, ShapeRecords.arrowProps(-50, 0, label)));
    }
    records.add(
        ShapeRecords.shape(
            "shape:line",
            "line",
            0,
            0,
            FractionalIndex.between("a0", "a1"),
            ShapeRecords.lineProps(linePoints(5))));
    records.add(
        ShapeRecords.shape("shape:frame", "frame", 0, 0, "a1", ShapeRecords.frameProps(1, 1, "")));
    records.add(
        ShapeRecords.shape(
            "shape:named-frame", "frame", 0, 0, "a2", ShapeRecords.frameProps(800, 600, "Plan ✓")));
    records.add(ShapeRecords.shape("shape:group", "group", 0, 0, "a3", ShapeRecords.groupProps()));
    Random random = new Random(3);
    for (boolean closed : new boolean[] {false, true}) {
      records.add(
          ShapeRecords.shape(
              "shape:draw-" + closed,
              "draw",
              0,
              0,
              "a4",
              ShapeRecords.drawProps(segments(random), closed)));
    }
    return records;
  }

  private static JsonObject linePoints(int count) {
    JsonObject points = new JsonObject();
    String index = null;
    for (int i = 0; i < count; i++) {
      index = FractionalIndex.after(index);
      points.put(
          index,
          new JsonObject()
              .put("id", index)
              .put("index", index)
              .put("x", i * 10.0)
              .put("y", i % 2 * 5.0));
    }
    return points;
  }

  private static JsonArray segments(Random random) {
    JsonArray segments = new JsonArray();
    for (String type : List.of("free", "straight", "free")) {
      List<DrawPath.Point> points = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        points.add(
            new DrawPath.Point(
                random.nextGaussian() * 50, random.nextGaussian() * 50, random.nextDouble()));
      }
      segments.add(new JsonObject().put("type", type).put("path", DrawPath.encode(points)));
    }
    return segments;
  }
}
