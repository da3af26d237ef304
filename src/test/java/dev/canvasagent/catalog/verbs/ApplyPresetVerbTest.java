package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbFixtures.boardOf;
import static dev.canvasagent.catalog.verbs.VerbFixtures.frame;
import static dev.canvasagent.catalog.verbs.VerbFixtures.geo;
import static dev.canvasagent.catalog.verbs.VerbFixtures.line;
import static dev.canvasagent.catalog.verbs.VerbFixtures.onlyPut;
import static dev.canvasagent.catalog.verbs.VerbFixtures.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RichText;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code apply_preset}: a brand macro, restyling targets or creating a note in the preset's style.
 */
class ApplyPresetVerbTest {
  Board board = boardOf(geo("box1", 0, 0), text("t1"), line("l1"), frame("f1"));

  SanitizedAction sanitize(JsonObject params) {
    return VerbFixtures.sanitize("apply_preset", params, board);
  }

  static JsonObject preset(String name) {
    return new JsonObject().put("preset", name);
  }

  static JsonObject targets(String name, String... ids) {
    return preset(name).put("targetIds", new JsonArray(List.of((Object[]) ids)));
  }

  @ParameterizedTest
  @CsvSource({
    "Hero,Hero",
    "hero,Hero",
    "headline,Hero",
    "Title,Hero",
    "banner,Hero",
    "callout,Callout",
    "highlight,Callout",
    "alert,Callout",
    "emphasis,Callout",
    "quiet,Quiet",
    "muted,Quiet",
    "subtle,Quiet",
    "secondary,Quiet",
    "wire,Wire",
    "wireframe,Wire",
    "outline,Wire",
    "sketch,Wire",
    "label,Label",
    "tag,Label",
    "caption,Label",
    "' HEADLINE ',Hero"
  })
  void synonymsNameThePreset(String word, String preset) {
    assertEquals(preset, sanitize(preset(word)).params().getString("preset"));
  }

  @Test
  void anUnknownPresetIsRejected() {
    ActionRejected rejected = assertThrows(ActionRejected.class, () -> sanitize(preset("Loud")));
    assertTrue(rejected.getMessage().contains("Loud"), rejected.getMessage());
    assertThrows(
        ActionRejected.class, () -> sanitize(preset("her")), "a half-streamed name is no preset");
    assertThrows(ActionRejected.class, () -> sanitize(preset(" ")));
  }

  @Test
  void withoutTargetsItCreatesANoteInThePresetsStyle() {
    SanitizedAction sanitized =
        sanitize(preset("headline").put("x", 80).put("y", 60).put("text", "Brutal honesty"));
    JsonObject note = onlyPut(sanitized);

    assertEquals("note", note.getString("type"));
    assertEquals(80.0, note.getDouble("x"));
    assertEquals(60.0, note.getDouble("y"));
    assertEquals(note.getString("id"), sanitized.params().getString("id"));
    JsonObject props = note.getJsonObject("props");
    assertEquals("Brutal honesty", RichText.plainText(props.getJsonObject("richText")));
    assertEquals("orange", props.getString("color"));
    assertEquals("black", props.getString("labelColor"));
    assertEquals("xl", props.getString("size"));
    assertEquals("sans", props.getString("font"));
    assertEquals("start", props.getString("align"));
    assertFalse(props.containsKey("fill"), "a note has no fill");
    assertFalse(props.containsKey("dash"), "a note has no dash");
  }

  @Test
  void withoutTextOrPositionTheNoteIsNamedAfterThePresetAtTheOrigin() {
    JsonObject note =
        onlyPut(
            VerbFixtures.sanitize(
                "apply_preset", preset("wire"), board, new CoordinateFrame(300, 400, Map.of())));
    assertEquals("Wire", RichText.plainText(note.getJsonObject("props").getJsonObject("richText")));
    assertEquals(300.0, note.getDouble("x"), "the model's 0 is the session origin");
    assertEquals(400.0, note.getDouble("y"));
    assertEquals("mono", note.getJsonObject("props").getString("font"));
  }

  @Test
  void targetsAreRestyledOnlyInPropsEachRecordHas() {
    SanitizedAction sanitized = sanitize(targets("Wire", "box1", "shape:t1", "l1", "f1"));
    assertEquals(List.of(), sanitized.diff().remove());
    assertEquals(4, sanitized.diff().put().size());

    for (JsonObject record : sanitized.diff().put()) {
      JsonObject before = board.record(record.getString("id")).orElseThrow();
      assertEquals(
          before.getJsonObject("props").fieldNames(),
          record.getJsonObject("props").fieldNames(),
          "no prop added to a " + record.getString("type"));
      JsonObject withoutProps = record.copy();
      withoutProps.remove("props");
      JsonObject beforeWithoutProps = before.copy();
      beforeWithoutProps.remove("props");
      assertEquals(beforeWithoutProps, withoutProps, "only props change");
    }
    JsonObject geo = sanitized.diff().put().get(0).getJsonObject("props");
    assertEquals("black", geo.getString("color"));
    assertEquals("none", geo.getString("fill"));
    assertEquals("dashed", geo.getString("dash"));
    assertEquals("mono", geo.getString("font"));
    assertEquals(
        "mono",
        sanitized.diff().put().get(1).getJsonObject("props").getString("font"),
        "text has a font");
    assertEquals(
        "dashed",
        sanitized.diff().put().get(2).getJsonObject("props").getString("dash"),
        "line has a dash");
  }

  @Test
  void targetsWithTextAreRelabelled() {
    JsonObject record = onlyPut(sanitize(targets("Callout", "box1").put("text", "Look here")));
    JsonObject props = record.getJsonObject("props");
    assertEquals("Look here", RichText.plainText(props.getJsonObject("richText")));
    assertEquals("red", props.getString("color"));
    assertEquals("semi", props.getString("fill"));
  }

  @Test
  void targetsWithTextThatCannotTakeALabelAreRejected() {
    assertThrows(
        ActionRejected.class, () -> sanitize(targets("Callout", "l1").put("text", "Look here")));
  }

  @Test
  void anUnknownTargetIsRejected() {
    assertThrows(ActionRejected.class, () -> sanitize(targets("Hero", "box1", "ghost")));
  }

  @Test
  void theTargetsAreWhatTheRunnerWaitsFor() {
    assertEquals(
        java.util.Set.of("shape:box1", "shape:ghost"),
        VerbFixtures.entry("apply_preset")
            .verb()
            .referencedShapes(targets("Hero", "box1", "shape:ghost")));
  }

  @Test
  void theSchemaWantsAPresetAndNonEmptyTargets() {
    assertTrue(VerbFixtures.violations("apply_preset", new JsonObject()).isPresent());
    assertTrue(VerbFixtures.violations("apply_preset", preset("")).isPresent());
    assertTrue(
        VerbFixtures.violations("apply_preset", preset("Hero").put("targetIds", new JsonArray()))
            .isPresent());
    assertTrue(
        VerbFixtures.violations("apply_preset", preset("Hero").put("color", "red")).isPresent());
  }
}
