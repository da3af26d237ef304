package dev.canvasagent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.DrawPath;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.board.TldrawStyles;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * No model output can break a verb: for every verb of the catalog, a few hundred random and hostile
 * params made from its schema alone ({@link SchemaSamples}: valid ones naming the board's shapes,
 * with huge numbers and 10k-char strings; invalid ones; and either with values of every JSON type
 * put anywhere, objects 50 deep, arrays of 5000 items). Each is refused by the schema, rejected by the
 * verb with {@link ActionRejected}, or turned into a diff whose records tldraw accepts and that keeps
 * the board whole. Anything else thrown is a bug. The seed is fixed, so a failure reproduces.
 */
class CatalogNeverThrowsTest {
  static final long SEED = 0x5eed_ca1a_109L;
  static final int INPUTS_PER_VERB = 200;
  static final int BIG_ARRAYS_PER_VERB = 4;

  final Random random = new Random(SEED);
  final SchemaSamples samples = new SchemaSamples(random);
  final Board board = board();
  final String boardBefore = board.toJson().encode();

  // The board the hostile actions run against: every shape type, a frame with children, groups,
  // bindings.

  static JsonObject shape(String id, String type, String index, JsonObject props) {
    return ShapeRecords.shape("shape:" + id, type, 10, 20, index, props);
  }

  static Board board() {
    JsonObject handles =
        new JsonObject()
            .put(
                "a0",
                new JsonObject().put("id", "a0").put("index", "a0").put("x", 0.0).put("y", 0.0))
            .put(
                "a1",
                new JsonObject().put("id", "a1").put("index", "a1").put("x", 40.0).put("y", 5.0));
    JsonArray segments =
        new JsonArray()
            .add(
                new JsonObject()
                    .put("type", "free")
                    .put(
                        "path",
                        DrawPath.encode(
                            List.of(
                                new DrawPath.Point(0, 0, 0.5),
                                new DrawPath.Point(10, 12, 0.5),
                                new DrawPath.Point(30, 4, 0.5)))));
    List<JsonObject> records =
        List.of(
            shape("box1", "geo", "a1", ShapeRecords.geoProps("rectangle", 120, 80, "Box")),
            shape("t1", "text", "a2", ShapeRecords.textProps("Title", 200)),
            shape("n1", "note", "a3", ShapeRecords.noteProps("Sticky")),
            shape("f1", "frame", "a4", ShapeRecords.frameProps(600, 400, "Frame")),
            shape("kid", "geo", "a1", ShapeRecords.geoProps("ellipse", 50, 50, ""))
                .put("parentId", "shape:f1"),
            shape("f2", "frame", "a2", ShapeRecords.frameProps(200, 200, "Inner"))
                .put("parentId", "shape:f1"),
            shape("deep", "note", "a1", ShapeRecords.noteProps("deep")).put("parentId", "shape:f2"),
            shape("l1", "line", "a5", ShapeRecords.lineProps(handles)),
            shape("d1", "draw", "a6", ShapeRecords.drawProps(segments, false)),
            shape("a1", "arrow", "a7", ShapeRecords.arrowProps(100, 40, "")),
            shape("g1", "group", "a8", ShapeRecords.groupProps()),
            shape("gbox", "geo", "a1", ShapeRecords.geoProps("diamond", 60, 60, "In a group"))
                .put("parentId", "shape:g1"),
            shape("gnote", "note", "a2", ShapeRecords.noteProps("also"))
                .put("parentId", "shape:g1"),
            shape("g2", "group", "a9", ShapeRecords.groupProps()),
            shape("g2a", "text", "a1", ShapeRecords.textProps("one", 80))
                .put("parentId", "shape:g2"),
            shape("g2b", "text", "a2", ShapeRecords.textProps("two", 80))
                .put("parentId", "shape:g2"),
            binding("b-start", "shape:a1", "shape:box1", "start"),
            binding("b-end", "shape:a1", "shape:kid", "end"),
            shape("a2", "arrow", "aa", ShapeRecords.arrowProps(80, 0, "")),
            binding("b-group", "shape:a2", "shape:g1", "end"));
    return Board.empty("room-fuzz").apply(new RecordDiff(records, List.of()), 7);
  }

  static JsonObject binding(String id, String from, String to, String terminal) {
    return dev.canvasagent.support.TestShapes.bound(id, from, terminal, to);
  }

  // Params: from the verb's schema (so that many get past it and reach the verb), or broken

  /**
   * Two thirds of the inputs are params the schema accepts, with values meant to hurt (extreme
   * numbers, strings at their longest, ids of no shape or of records that are not shapes): those
   * reach the verb. A sixth are params it refuses (one value of the wrong type or out of range, a
   * required key missing, an unknown one); a sixth are valid params with one to three values
   * replaced by anything at all.
   */
  JsonObject params(ActionCatalog.Entry entry) {
    return switch (random.nextInt(6)) {
      case 0, 1, 2, 3 -> samples.valid(entry.schema(), board);
      case 4 -> samples.invalid(entry.schema(), board);
      default -> {
        JsonObject params = samples.valid(entry.schema(), board);
        for (int i = random.nextInt(3); i >= 0; i--) {
          samples.mutate(params);
        }
        yield params;
      }
    };
  }

  CoordinateFrame frame() {
    return random.nextBoolean()
        ? CoordinateFrame.atOrigin()
        : new CoordinateFrame(
            250.5, -75.25, Map.of("shape:box1_x", 0.375, "shape:box1_w", -0.25, "shape:t1_y", 0.5));
  }

  // What every accepted action must give

  void assertSound(ActionCatalog.Entry entry, SanitizedAction sanitized) {
    assertTrue(
        sanitized != null && sanitized.params() != null && sanitized.diff() != null,
        "a whole result");
    RecordDiff diff = sanitized.diff();
    if (entry.verb().kind() != VerbKind.BOARD) {
      assertTrue(diff.isEmpty(), "only board verbs change records");
    }
    for (JsonObject record : diff.put()) {
      assertRecord(record);
    }
    assertEquals(Optional.empty(), BoardIntegrity.problem(board, diff), "the board stays whole");
    for (String key : new String[] {"x", "y", "w", "h"}) {
      JsonObject rectangle =
          switch (entry.verb().name()) {
            case "set_viewport" -> sanitized.params();
            case "review" -> sanitized.params().getJsonObject("bounds");
            default -> null;
          };
      if (rectangle != null) {
        assertFinite(rectangle.getValue(key), key);
        if (!key.equals("x") && !key.equals("y")) {
          assertTrue(rectangle.getDouble(key) > 0, key + " > 0");
        }
      }
    }
  }

  static void assertFinite(Object value, String what) {
    assertTrue(
        value instanceof Number number && Double.isFinite(number.doubleValue()),
        what + " is a finite number: " + value);
  }

  static final Map<String, Set<String>> ENUMS =
      Map.ofEntries(
          Map.entry("color", TldrawStyles.COLORS),
          Map.entry("labelColor", TldrawStyles.COLORS),
          Map.entry("fill", TldrawStyles.FILLS),
          Map.entry("dash", TldrawStyles.DASHES),
          Map.entry("size", TldrawStyles.SIZES),
          Map.entry("font", TldrawStyles.FONTS),
          Map.entry("align", TldrawStyles.ALIGNS),
          Map.entry("verticalAlign", TldrawStyles.VERTICAL_ALIGNS),
          Map.entry("textAlign", TldrawStyles.TEXT_ALIGNS),
          Map.entry("geo", TldrawStyles.GEOS),
          Map.entry("arrowheadStart", TldrawStyles.ARROWHEADS),
          Map.entry("arrowheadEnd", TldrawStyles.ARROWHEADS),
          Map.entry("spline", Set.of("line", "cubic")),
          Map.entry("kind", Set.of("arc", "elbow")));

  static void assertRecord(JsonObject record) {
    if ("binding".equals(record.getString("typeName"))) {
      // An arrow's bound end: checked as tldraw would check it.
      assertEquals(
          java.util.Optional.empty(),
          dev.canvasagent.board.TldrawRecordValidator.check(record).map(Object::toString));
      return;
    }
    assertEquals("shape", record.getString("typeName"));
    assertTrue(record.getString("id").startsWith("shape:"), record.getString("id"));
    assertFinite(record.getValue("x"), "x");
    assertFinite(record.getValue("y"), "y");
    assertFinite(record.getValue("rotation"), "rotation");
    assertTrue(
        record.getValue("index") instanceof String index && FractionalIndex.isValid(index),
        "index " + record.getValue("index"));
    assertTrue(
        record.getValue("parentId") instanceof String parent
            && (parent.startsWith("page:") || parent.startsWith("shape:")),
        "parentId " + record.getValue("parentId"));
    JsonObject props = record.getJsonObject("props");
    assertTrue(props != null, "props");
    for (String length : new String[] {"w", "h", "scale"}) {
      if (props.containsKey(length)) {
        assertFinite(props.getValue(length), length);
        assertTrue(props.getDouble(length) > 0, length + " > 0: " + props.getValue(length));
      }
    }
    ENUMS.forEach(
        (prop, allowed) -> {
          if (props.containsKey(prop)) {
            assertTrue(allowed.contains(props.getString(prop)), prop + "=" + props.getValue(prop));
          }
        });
    assertTrue(!props.containsKey("text"), "tldraw 5 has no text prop");
    if (props.containsKey("richText")) {
      assertEquals("doc", props.getJsonObject("richText").getString("type"));
    }
    if (props.getValue("segments") instanceof JsonArray segments) {
      assertTrue(!segments.isEmpty(), "segments");
      for (Object segment : segments) {
        for (DrawPath.Point point : DrawPath.decode(((JsonObject) segment).getString("path"))) {
          assertTrue(
              Double.isFinite(point.x())
                  && Double.isFinite(point.y())
                  && Double.isFinite(point.z()),
              "draw point " + point);
        }
      }
    }
    if (props.getValue("points") instanceof JsonObject handles) {
      handles.forEach(
          handle -> {
            assertFinite(((JsonObject) handle.getValue()).getValue("x"), "line handle x");
            assertFinite(((JsonObject) handle.getValue()).getValue("y"), "line handle y");
          });
    }
    for (String end : new String[] {"start", "end"}) {
      if (props.getValue(end) instanceof JsonObject point) {
        assertFinite(point.getValue("x"), end + ".x");
        assertFinite(point.getValue("y"), end + ".y");
      }
    }
  }

  static String shortly(JsonObject params) {
    String json = String.valueOf(params);
    return json.length() > 600 ? json.substring(0, 600) + "… (" + json.length() + " chars)" : json;
  }

  @Test
  void noParamsMakeAnyVerbThrowAnythingButActionRejected() {
    System.out.print(exercise(ActionCatalog.standard().entries()));
  }

  /**
   * Runs {@link #INPUTS_PER_VERB} inputs through each verb; fails on anything but a refusal, a
   * rejection or a sound result, and when a verb was reached too rarely (fewer than 20 inputs past
   * its schema, or fewer than 5 accepted) to say anything. Answers how each verb's inputs ended.
   */
  String exercise(Collection<ActionCatalog.Entry> entries) {
    StringBuilder stats = new StringBuilder();
    for (ActionCatalog.Entry entry : entries) {
      int refused = 0;
      int rejected = 0;
      int accepted = 0;
      samples.allowBigArrays(BIG_ARRAYS_PER_VERB);
      for (int i = 0; i < INPUTS_PER_VERB; i++) {
        JsonObject params = params(entry);
        String input =
            entry.verb().name() + " input #" + i + " (seed " + SEED + "): " + shortly(params);
        try {
          if (entry.schema().violations(params).isPresent()) {
            refused++;
            continue;
          }
          SanitizedAction sanitized;
          entry.verb().referencedShapes(params);
          try {
            sanitized =
                entry
                    .verb()
                    .sanitize(params, new ActionContext(board, frame(), random.nextBoolean()));
          } catch (ActionRejected expected) {
            rejected++;
            continue;
          } finally {
            assertEquals(
                boardBefore, board.toJson().encode(), "the verb leaves the board's records alone");
          }
          assertSound(entry, sanitized);
          accepted++;
        } catch (AssertionError | RuntimeException broken) {
          fail(input + " -> " + broken, broken);
        }
      }
      stats
          .append(entry.verb().name())
          .append(": refused ")
          .append(refused)
          .append(", rejected ")
          .append(rejected)
          .append(", accepted ")
          .append(accepted)
          .append("\n");
      assertTrue(
          rejected + accepted >= 20 && accepted >= 5,
          entry.verb().name() + " was reached too rarely: " + stats);
    }
    return stats.toString();
  }
}
