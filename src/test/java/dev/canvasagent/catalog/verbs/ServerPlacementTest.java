package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.PanelInsets;
import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Work an action does not place (a {@code create_shape} without x and y, every {@code
 * batch_operations}) goes inside the requester's view, clear of tldraw's panels and of the shapes
 * there; the session's origin only matters when the view is unknown.
 */
class ServerPlacementTest {
  static final ActionCatalog CATALOG = ActionCatalog.standard();

  /** The browser client's canvas at 1280 x 800, far from the session's first view. */
  static final Box VIEW = Box.of(5000, 3000, 920, 760);

  static final Box SAFE = PanelInsets.TLDRAW.safeArea(VIEW);

  /** The session's origin, where its first run's view was. */
  static final CoordinateFrame FRAME = new CoordinateFrame(0, 0, Map.of());

  Board board = Board.empty("room-1");

  JsonObject create(JsonObject params, Box view) {
    var sanitized =
        CATALOG
            .entry("create_shape")
            .orElseThrow()
            .verb()
            .sanitize(params, new ActionContext(board, FRAME, true, view));
    TldrawOracle.assertValid(sanitized.diff().put());
    board = board.apply(sanitized.diff(), board.revision() + 1);
    return sanitized.params();
  }

  Box bounds(String id) {
    return new ShapeGeometry(board).pageBounds(id).orElseThrow();
  }

  static JsonObject note(String id) {
    return new JsonObject().put("type", "sticky").put("id", id).put("text", "note " + id);
  }

  @Test
  void theInsetsLeaveTheMiddleOfTheViewClearOfTldrawsPanels() {
    assertEquals(new Box(5016, 3056, 5744, 3688), SAFE);
  }

  @Test
  void aViewTooSmallForTheInsetsKeepsItsWholeSize() {
    Box tiny = Box.of(0, 0, 150, 100);
    assertEquals(tiny, PanelInsets.TLDRAW.safeArea(tiny));
  }

  @Test
  void aShapeWithoutXAndYGoesAtTheTopLeftOfTheViewClearOfTheMenus() {
    JsonObject params = create(note("n1"), VIEW);
    assertEquals(new Box(5016, 3056, 5216, 3256), bounds("shape:n1"));
    assertEquals(
        5016, params.getLong("x"), "the envelope says where it went, as the model sees it");
    assertEquals(3056, params.getLong("y"));
  }

  @Test
  void shapesPlacedOneAfterAnotherFillARowInsideTheViewThenTheNext() {
    for (String id : List.of("n1", "n2", "n3", "n4")) {
      create(note(id), VIEW);
    }
    List<Box> placed =
        List.of("n1", "n2", "n3", "n4").stream().map(id -> bounds("shape:" + id)).toList();
    for (Box box : placed) {
      assertTrue(box.isWithin(SAFE), "inside the view, clear of the panels: " + box);
    }
    assertEquals(placed.get(0).minY(), placed.get(2).minY(), "three fit in a row");
    assertTrue(placed.get(3).minY() >= placed.get(0).maxY() + 40, "the fourth starts the next row");
  }

  @Test
  void aPlacedShapeKeepsClearOfShapesInTheView() {
    create(
        new JsonObject()
            .put("type", "rectangle")
            .put("id", "big")
            .put("x", 5016)
            .put("y", 3056)
            .put("props", new JsonObject().put("w", 400).put("h", 300)),
        null);
    create(note("n1"), VIEW);
    Box note = bounds("shape:n1");
    assertTrue(note.isWithin(SAFE), note.toString());
    assertTrue(note.minX() >= 5016 + 400 + 40, "right of the rectangle, 40 apart: " + note);
  }

  @Test
  void withoutAViewAShapeGoesNearTheSessionsOrigin() {
    create(note("n1"), null);
    assertEquals(new Box(40, 40, 240, 240), bounds("shape:n1"));
  }

  @Test
  void aFullViewSendsTheShapeOutsideItRatherThanOnTopOfAnything() {
    create(
        new JsonObject()
            .put("type", "rectangle")
            .put("id", "wall")
            .put("x", 5000)
            .put("y", 3000)
            .put("props", new JsonObject().put("w", 920).put("h", 760)),
        null);
    create(note("n1"), VIEW);
    Box note = bounds("shape:n1");
    assertFalse(note.isWithin(SAFE));
    assertTrue(note.minX() >= 5920 + 40 || note.minY() >= 3760 + 40, note.toString());
  }

  @Test
  void onlyXWithoutYIsRefusedAndChangesNothing() {
    ActionRejected refused =
        assertThrows(ActionRejected.class, () -> create(note("n1").put("x", 10), VIEW));
    assertTrue(refused.getMessage().contains("both x and y, or neither"), refused.getMessage());
    assertTrue(board.shape("shape:n1").isEmpty());
  }

  @Test
  void aShapeThatSaysWhereStaysThereWhateverTheView() {
    create(note("n1").put("x", 10).put("y", 20), VIEW);
    assertEquals(10, bounds("shape:n1").minX());
    assertEquals(20, bounds("shape:n1").minY());
  }

  @Test
  void aBatchLandsInsideTheRequestersViewNotAtTheSessionsOrigin() {
    JsonObject params =
        new JsonObject()
            .put(
                "operations",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("op", "createNote")
                            .put("ref", "note_a")
                            .put("text", "A"))
                    .add(
                        new JsonObject()
                            .put("op", "createNote")
                            .put("ref", "note_b")
                            .put("text", "B")));
    var sanitized =
        CATALOG
            .entry("batch_operations")
            .orElseThrow()
            .verb()
            .sanitize(params, new ActionContext(board, FRAME, true, VIEW));
    board = board.apply(sanitized.diff(), board.revision() + 1);
    ShapeGeometry geometry = new ShapeGeometry(board);
    for (String id : board.childIds("page:page")) {
      Box box = geometry.pageBounds(id).orElseThrow();
      assertTrue(box.isWithin(SAFE), "inside the view, clear of the panels: " + box);
    }
    assertEquals(2, board.childIds("page:page").size());
  }
}
