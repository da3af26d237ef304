package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbFixtures.arrow;
import static dev.canvasagent.catalog.verbs.VerbFixtures.boardOf;
import static dev.canvasagent.catalog.verbs.VerbFixtures.frame;
import static dev.canvasagent.catalog.verbs.VerbFixtures.geo;
import static dev.canvasagent.catalog.verbs.VerbFixtures.line;
import static dev.canvasagent.catalog.verbs.VerbFixtures.note;
import static dev.canvasagent.catalog.verbs.VerbFixtures.onlyPut;
import static dev.canvasagent.catalog.verbs.VerbFixtures.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RichText;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code label}: the text of a shape that has one; a frame's name. */
class LabelVerbTest {
  Board board =
      boardOf(geo("box1", 0, 0), text("t1"), note("n1"), arrow("a1"), frame("f1"), line("l1"));

  JsonObject label(String id, String text) {
    return onlyPut(
        VerbFixtures.sanitize(
            "label", new JsonObject().put("shapeId", id).put("text", text), board));
  }

  @Test
  void geoNoteTextAndArrowGetRichText() {
    for (String id : new String[] {"box1", "t1", "n1", "a1"}) {
      JsonObject record = label(id, "Ship\nit");
      assertEquals(
          RichText.of("Ship\nit"), record.getJsonObject("props").getJsonObject("richText"), id);
      JsonObject expected = board.record("shape:" + id).orElseThrow().copy();
      expected.getJsonObject("props").put("richText", RichText.of("Ship\nit"));
      assertEquals(expected, record, "nothing else changes on " + id);
    }
  }

  @Test
  void anEmptyLabelIsAnEmptyParagraph() {
    assertEquals(
        RichText.of(""), label("box1", "").getJsonObject("props").getJsonObject("richText"));
    assertEquals(
        new JsonObject("{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\"}]}"),
        RichText.of(""));
  }

  @Test
  void aFramesLabelIsItsName() {
    assertEquals("Q3", label("f1", "Q3").getJsonObject("props").getString("name"));
  }

  @Test
  void aLineHasNoLabel() {
    ActionRejected rejected = assertThrows(ActionRejected.class, () -> label("l1", "hi"));
    assertTrue(rejected.getMessage().contains("line"), rejected.getMessage());
  }

  @Test
  void anUnknownShapeIsRejected() {
    assertThrows(ActionRejected.class, () -> label("ghost", "hi"));
  }

  @Test
  void theSchemaWantsAShapeIdAndText() {
    assertTrue(
        VerbFixtures.violations("label", new JsonObject().put("shapeId", "box1")).isPresent());
    assertTrue(VerbFixtures.violations("label", new JsonObject().put("text", "hi")).isPresent());
    assertTrue(
        VerbFixtures.violations(
                "label", new JsonObject().put("shapeId", "box1").put("text", "x".repeat(10_001)))
            .isPresent());
  }
}
