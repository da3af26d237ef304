package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbFixtures.boardOf;
import static dev.canvasagent.catalog.verbs.VerbFixtures.frame;
import static dev.canvasagent.catalog.verbs.VerbFixtures.geo;
import static dev.canvasagent.catalog.verbs.VerbFixtures.line;
import static dev.canvasagent.catalog.verbs.VerbFixtures.note;
import static dev.canvasagent.catalog.verbs.VerbFixtures.onlyPut;
import static dev.canvasagent.catalog.verbs.VerbFixtures.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.RichText;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code update_shape}: only what is given changes, and only props the shape's type has. */
class UpdateShapeVerbTest {
  Board board = boardOf(geo("box1", 10, 20), text("t1"), note("n1"), frame("f1"), line("l1"));

  SanitizedAction sanitize(JsonObject params) {
    return VerbFixtures.sanitize("update_shape", params, board);
  }

  JsonObject updated(JsonObject params) {
    return onlyPut(sanitize(params));
  }

  JsonObject before(String id) {
    return board.record("shape:" + id).orElseThrow();
  }

  static JsonObject update(String id) {
    return new JsonObject().put("shapeId", id);
  }

  static JsonObject props(Object... keyValues) {
    JsonObject props = new JsonObject();
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put((String) keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  @Test
  void onlyTheGivenFieldsChange() {
    JsonObject record = updated(update("box1").put("x", 300).put("props", props("color", "blue")));

    JsonObject expected = before("box1").copy().put("x", 300.0);
    expected.getJsonObject("props").put("color", "blue");
    assertEquals(expected, record);
  }

  @Test
  void theNormalizedParamsNameTheRecordId() {
    SanitizedAction sanitized = sanitize(update("box1").put("y", 5));
    assertEquals("shape:box1", sanitized.params().getString("shapeId"));
    assertEquals("shape:box1", onlyPut(sanitized).getString("id"));
    assertEquals(
        Set.of("shape:box1"),
        VerbFixtures.entry("update_shape").verb().referencedShapes(update("shape:box1")));
    assertEquals(VerbKind.BOARD, VerbFixtures.entry("update_shape").verb().kind());
  }

  @Test
  void aRecordIdWorksAsWellAsAModelId() {
    assertEquals(300.0, updated(update("shape:box1").put("x", 300)).getDouble("x"));
  }

  @Test
  void stylesAreNormalized() {
    JsonObject props =
        updated(
                update("box1")
                    .put(
                        "props",
                        props(
                            "color",
                            "purple",
                            "fill",
                            "filled",
                            "dash",
                            "dot",
                            "size",
                            "huge",
                            "font",
                            "monospace",
                            "align",
                            "left",
                            "verticalAlign",
                            "top",
                            "geo",
                            "circle",
                            "labelColor",
                            "charcoal")))
            .getJsonObject("props");
    assertEquals("violet", props.getString("color"));
    assertEquals("solid", props.getString("fill"));
    assertEquals("dotted", props.getString("dash"));
    assertEquals("xl", props.getString("size"));
    assertEquals("mono", props.getString("font"));
    assertEquals("start", props.getString("align"));
    assertEquals("start", props.getString("verticalAlign"));
    assertEquals("ellipse", props.getString("geo"));
    assertEquals("black", props.getString("labelColor"));
  }

  @Test
  void aHalfStreamedStyleKeepsTheOldValue() {
    JsonObject props =
        updated(update("box1").put("x", 1).put("props", props("color", "r", "fill", "sol")))
            .getJsonObject("props");
    assertEquals("black", props.getString("color"));
    assertEquals("none", props.getString("fill"));
  }

  @Test
  void aPropTheTypeLacksIsNotAdded() {
    JsonObject record =
        updated(update("t1").put("props", props("fill", "solid", "h", 40, "color", "red")));
    JsonObject props = record.getJsonObject("props");
    assertFalse(props.containsKey("fill"), props.encode());
    assertFalse(props.containsKey("h"), props.encode());
    assertEquals("red", props.getString("color"));
    assertEquals(before("t1").getJsonObject("props").fieldNames(), props.fieldNames());
  }

  @Test
  void aNoteHasNoSizeToChange() {
    JsonObject record =
        updated(update("n1").put("props", props("w", 500, "h", 500, "color", "yellow")));
    assertEquals(
        before("n1").getJsonObject("props").fieldNames(),
        record.getJsonObject("props").fieldNames());
  }

  @Test
  void widthAndHeightAreClamped() {
    JsonObject small =
        updated(update("box1").put("props", props("w", 0, "h", -20))).getJsonObject("props");
    assertEquals(1.0, small.getDouble("w"));
    assertEquals(1.0, small.getDouble("h"));

    JsonObject large =
        updated(update("box1").put("props", props("w", 1e308, "h", 250_000)))
            .getJsonObject("props");
    assertEquals(100_000.0, large.getDouble("w"));
    assertEquals(100_000.0, large.getDouble("h"));

    assertEquals(
        1.0,
        updated(update("t1").put("props", props("w", -1e308)))
            .getJsonObject("props")
            .getDouble("w"));
  }

  @Test
  void coordinatesAreClamped() {
    JsonObject record = updated(update("box1").put("x", 1e308).put("y", -1e308));
    assertEquals(1_000_000.0, record.getDouble("x"));
    assertEquals(-1_000_000.0, record.getDouble("y"));
  }

  @Test
  void rotationIsDegreesMadeRadians() {
    assertEquals(
        Math.PI / 2, updated(update("box1").put("rotation", 90)).getDouble("rotation"), 1e-12);
    assertEquals(
        Math.PI / 2, updated(update("box1").put("rotation", 450)).getDouble("rotation"), 1e-12);
    assertEquals(
        -Math.PI / 4, updated(update("box1").put("rotation", -45)).getDouble("rotation"), 1e-12);
  }

  @Test
  void textBecomesRichText() {
    JsonObject props = updated(update("box1").put("text", "New\nlabel")).getJsonObject("props");
    assertEquals(RichText.of("New\nlabel"), props.getJsonObject("richText"));
    assertFalse(props.containsKey("text"));

    JsonObject fromProps =
        updated(update("n1").put("props", props("text", "via props"))).getJsonObject("props");
    assertEquals("via props", RichText.plainText(fromProps.getJsonObject("richText")));
    assertFalse(fromProps.containsKey("text"));
  }

  @Test
  void theTopLevelTextWinsOverPropsText() {
    JsonObject props =
        updated(update("box1").put("text", "top").put("props", props("text", "nested")))
            .getJsonObject("props");
    assertEquals("top", RichText.plainText(props.getJsonObject("richText")));
  }

  @Test
  void aFramesTextIsItsName() {
    JsonObject props = updated(update("f1").put("text", "Q3 plan")).getJsonObject("props");
    assertEquals("Q3 plan", props.getString("name"));
    assertFalse(props.containsKey("richText"));

    assertEquals(
        "Renamed",
        updated(update("f1").put("props", props("name", "Renamed")))
            .getJsonObject("props")
            .getString("name"));
  }

  @Test
  void aNameOnAShapeWithoutOneIsNotAdded() {
    JsonObject record = updated(update("box1").put("x", 0).put("props", props("name", "nope")));
    assertFalse(record.getJsonObject("props").containsKey("name"));
  }

  @Test
  void textOnAShapeWithoutALabelIsRejected() {
    ActionRejected rejected =
        assertThrows(ActionRejected.class, () -> sanitize(update("l1").put("text", "hi")));
    assertTrue(rejected.getMessage().contains("line"), rejected.getMessage());
  }

  @Test
  void anUpdateToWhatTheShapeAlreadyIsMakesADiffThatChangesNothing() {
    for (JsonObject same :
        List.of(
            update("box1").put("x", 10).put("y", 20),
            update("box1").put("props", props("color", "black")))) {
      JsonObject record = updated(same);
      assertEquals(before("box1"), record, same.encode());
      assertFalse(board.changedBy(RecordDiff.putting(record)), same.encode());
    }
  }

  @Test
  void anUpdateThatAsksForNothingTheShapeTakesIsRejected() {
    assertThrows(ActionRejected.class, () -> sanitize(update("box1")));
    assertThrows(
        ActionRejected.class,
        () -> sanitize(update("t1").put("props", props("fill", "solid"))),
        "a prop the type lacks changes nothing");
    assertThrows(
        ActionRejected.class, () -> sanitize(update("box1").put("props", props("color", "bl"))));
  }

  @Test
  void anUnknownShapeIsRejected() {
    ActionRejected rejected =
        assertThrows(ActionRejected.class, () -> sanitize(update("ghost").put("x", 1)));
    assertTrue(rejected.getMessage().contains("ghost"), rejected.getMessage());
  }

  @Test
  void aShapeIdThatCannotBeOneIsRejected() {
    assertThrows(ActionRejected.class, () -> sanitize(update("shape:").put("x", 1)));
  }

  @Test
  void theSchemaRefusesWhatItDoesNotKnow() {
    assertTrue(
        VerbFixtures.violations("update_shape", new JsonObject().put("x", 1)).isPresent(),
        "shapeId is required");
    assertTrue(
        VerbFixtures.violations("update_shape", update("box1").put("colour", "red")).isPresent());
    assertTrue(
        VerbFixtures.violations("update_shape", update("box1").put("props", props("opacity", 0.5)))
            .isPresent());
    assertTrue(VerbFixtures.violations("update_shape", update("box 1")).isPresent());
    assertTrue(VerbFixtures.violations("update_shape", update("box1").put("x", "10")).isPresent());
  }

  @Test
  void positionsComeBackThroughTheSessionFrameWithTheirRounding() {
    CoordinateFrame frame = new CoordinateFrame(1000, 2000, Map.of());
    board = boardOf(geo("box1", 1010.25, 2020.75));
    long modelX = frame.toModel("shape:box1", "x", 1010.25);
    long modelW = frame.toModel("shape:box1", "w", 100.4);

    JsonObject record =
        onlyPut(
            VerbFixtures.sanitize(
                "update_shape",
                update("box1").put("x", modelX).put("y", 30).put("props", props("w", modelW)),
                board,
                frame));

    assertEquals(1010.25, record.getDouble("x"), "the rounding is restored for the same shape");
    assertEquals(2030.0, record.getDouble("y"));
    assertEquals(100.4, record.getJsonObject("props").getDouble("w"), 1e-9);
  }
}
