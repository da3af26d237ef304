package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verbs that change no record: what kind each is and the params they normalize. */
class MetaVerbsTest {
  final Board board = VerbFixtures.boardOf(VerbFixtures.geo("box1", 0, 0));
  final CoordinateFrame frame = new CoordinateFrame(1000, -200, Map.of());

  SanitizedAction sanitize(String verb, JsonObject params) {
    SanitizedAction sanitized = VerbFixtures.sanitize(verb, params, board, frame);
    assertTrue(sanitized.diff().isEmpty(), verb + " changes no record");
    return sanitized;
  }

  static VerbKind kind(String verb) {
    return VerbFixtures.entry(verb).verb().kind();
  }

  static boolean schemaAccepts(String verb, JsonObject params) {
    return VerbFixtures.violations(verb, params).isEmpty();
  }

  @Test
  void kinds() {
    assertEquals(VerbKind.CHAT, kind("message"));
    assertEquals(VerbKind.CHAT, kind("think"));
    assertEquals(VerbKind.AGENT, kind("todo"));
    assertEquals(VerbKind.AGENT, kind("add_detail"));
    assertEquals(VerbKind.AGENT, kind("review"));
    assertEquals(VerbKind.CLIENT, kind("set_viewport"));
    for (String verb :
        new String[] {
          "create_shape", "update_shape", "delete_shape", "label", "pen", "apply_preset", "clear"
        }) {
      assertEquals(VerbKind.BOARD, kind(verb), verb);
    }
  }

  @Test
  void messageIsStrippedText() {
    assertEquals(
        new JsonObject().put("text", "Done: three columns."),
        sanitize("message", new JsonObject().put("text", "\n  Done: three columns.  ")).params());
    assertEquals(false, schemaAccepts("message", new JsonObject().put("text", " \t\n")));
    assertEquals(false, schemaAccepts("message", new JsonObject()));
    assertEquals(false, schemaAccepts("message", new JsonObject().put("text", "x".repeat(4001))));
  }

  @Test
  void setViewportIsAPageRectangleWithClampedSize() {
    JsonObject page =
        sanitize(
                "set_viewport",
                new JsonObject().put("x", 10).put("y", 20).put("w", 1200).put("h", 800))
            .params();
    assertEquals(
        new JsonObject().put("x", 1010.0).put("y", -180.0).put("w", 1200.0).put("h", 800.0), page);

    JsonObject huge =
        sanitize(
                "set_viewport",
                new JsonObject().put("x", 1e308).put("y", -1e308).put("w", 1e308).put("h", 0.001))
            .params();
    assertEquals(
        new JsonObject()
            .put("x", 1_000_000.0)
            .put("y", -1_000_000.0)
            .put("w", 100_000.0)
            .put("h", 1.0),
        huge);
  }

  @Test
  void setViewportNeedsAPositiveRectangle() {
    assertEquals(
        false,
        schemaAccepts(
            "set_viewport", new JsonObject().put("x", 0).put("y", 0).put("w", 0).put("h", 10)));
    assertEquals(
        false,
        schemaAccepts("set_viewport", new JsonObject().put("x", 0).put("y", 0).put("w", 10)));
  }

  @Test
  void todoStripsItsText() {
    JsonObject params =
        sanitize("todo", new JsonObject().put("text", "  Add a legend ").put("status", "open"))
            .params();
    assertEquals(new JsonObject().put("text", "Add a legend").put("status", "open"), params);
    JsonObject byId = new JsonObject().put("id", "t1").put("status", "done").put("position", 3);
    assertEquals(byId, sanitize("todo", byId).params());
  }

  @Test
  void todoNeedsTextOrAnId() {
    assertEquals(false, schemaAccepts("todo", new JsonObject()));
    assertEquals(false, schemaAccepts("todo", new JsonObject().put("status", "done")));
    assertEquals(true, schemaAccepts("todo", new JsonObject().put("text", "x")));
    assertEquals(true, schemaAccepts("todo", new JsonObject().put("id", "t1")));
    assertEquals(false, schemaAccepts("todo", new JsonObject().put("text", "   ")));
    assertEquals(
        false, schemaAccepts("todo", new JsonObject().put("id", "t1").put("status", "finished")));
    assertEquals(
        false, schemaAccepts("todo", new JsonObject().put("id", "t1").put("position", 1.5)));
    assertEquals(
        false, schemaAccepts("todo", new JsonObject().put("id", "t1").put("position", -1)));
  }

  @Test
  void addDetailKeepsItsIntent() {
    JsonObject params = new JsonObject().put("intent", "label every arrow");
    assertEquals(params, sanitize("add_detail", params).params());
    assertEquals(new JsonObject(), sanitize("add_detail", new JsonObject()).params());
    assertEquals(
        false, schemaAccepts("add_detail", new JsonObject().put("intent", "x".repeat(501))));
  }

  @Test
  void reviewIsPageBoundsAndAStrippedNote() {
    JsonObject params =
        sanitize(
                "review",
                new JsonObject()
                    .put("x", 0)
                    .put("y", 0)
                    .put("w", 800)
                    .put("h", 600)
                    .put("note", " check the spacing "))
            .params();
    assertEquals(
        new JsonObject()
            .put(
                "bounds",
                new JsonObject().put("x", 1000.0).put("y", -200.0).put("w", 800.0).put("h", 600.0))
            .put("note", "check the spacing"),
        params);

    JsonObject clamped =
        sanitize(
                "review",
                new JsonObject().put("x", -1e308).put("y", 0).put("w", 1e308).put("h", 1e-9))
            .params();
    assertEquals(
        new JsonObject().put("x", -1_000_000.0).put("y", -200.0).put("w", 100_000.0).put("h", 1.0),
        clamped.getJsonObject("bounds"));
    assertEquals(false, clamped.containsKey("note"));
    assertEquals(
        false,
        schemaAccepts("review", new JsonObject().put("x", 0).put("y", 0).put("w", -1).put("h", 1)));
  }

  @Test
  void thinkIsStrippedText() {
    assertEquals(
        new JsonObject().put("text", "Drawing."),
        sanitize("think", new JsonObject().put("text", " Drawing. ")).params());
  }
}
