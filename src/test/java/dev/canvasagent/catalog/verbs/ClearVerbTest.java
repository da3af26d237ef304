package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbFixtures.arrow;
import static dev.canvasagent.catalog.verbs.VerbFixtures.binding;
import static dev.canvasagent.catalog.verbs.VerbFixtures.boardOf;
import static dev.canvasagent.catalog.verbs.VerbFixtures.child;
import static dev.canvasagent.catalog.verbs.VerbFixtures.frame;
import static dev.canvasagent.catalog.verbs.VerbFixtures.geo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code clear}: every shape and binding goes, except the shapes a person locked, what is inside them
 * and what they sit in; an empty board has nothing to clear.
 */
class ClearVerbTest {
  @Test
  void everyShapeAndBindingIsRemoved() {
    JsonObject page =
        new JsonObject()
            .put("id", "page:page")
            .put("typeName", "page")
            .put("name", "Page 1")
            .put("index", "a1")
            .put("meta", new JsonObject());
    Board board =
        boardOf(
            page,
            frame("f1"),
            child(geo("inner", 0, 0), "shape:f1"),
            geo("b", 0, 0),
            arrow("a1"),
            binding("end", "shape:a1", "shape:b", "end"));

    SanitizedAction sanitized = VerbFixtures.sanitize("clear", new JsonObject(), board);

    RecordDiff diff = sanitized.diff();
    assertEquals(List.of(), diff.put());
    assertEquals(
        Set.of("shape:f1", "shape:inner", "shape:b", "shape:a1", "binding:end"),
        Set.copyOf(diff.remove()));
    assertEquals(Optional.empty(), BoardIntegrity.problem(board, diff));
    assertEquals(Set.of("page:page"), board.apply(diff, 2).records().keySet(), "the page stays");
    assertEquals(new JsonObject(), sanitized.params());
  }

  @Test
  void lockedShapesStayWithWhatIsInsideThemAndABindingGoesWithEitherEnd() {
    Board board =
        boardOf(
            frame("lf").put("isLocked", true),
            child(geo("inner", 0, 0), "shape:lf"),
            arrow("pinned").put("isLocked", true).put("index", "a7"),
            geo("b", 0, 0),
            arrow("a1"),
            binding("toLocked", "shape:a1", "shape:lf", "end"),
            binding("fromLocked", "shape:pinned", "shape:b", "start"),
            binding("bothKept", "shape:pinned", "shape:inner", "end"));

    RecordDiff diff = VerbFixtures.sanitize("clear", new JsonObject(), board).diff();

    assertEquals(
        Set.of("shape:b", "shape:a1", "binding:toLocked", "binding:fromLocked"),
        Set.copyOf(diff.remove()));
    assertEquals(Optional.empty(), BoardIntegrity.problem(board, diff));
  }

  @Test
  void aBoardOfLockedShapesOnlyIsRefusedAsLocked() {
    Board board = boardOf(frame("lf").put("isLocked", true), child(geo("inner", 0, 0), "shape:lf"));
    ActionRejected rejected =
        assertThrows(
            ActionRejected.class, () -> VerbFixtures.sanitize("clear", new JsonObject(), board));
    assertTrue(
        rejected.getMessage().startsWith("locked: shape(s) [lf] are locked"),
        rejected.getMessage());
  }

  @Test
  void anEmptyBoardIsRejected() {
    assertThrows(
        ActionRejected.class,
        () -> VerbFixtures.sanitize("clear", new JsonObject(), Board.empty("room-1")));
  }

  @Test
  void theSchemaTakesNoParams() {
    assertTrue(VerbFixtures.violations("clear", new JsonObject().put("all", true)).isPresent());
  }
}
