package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.ShapeTree;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code reorder}: stacking order among siblings through new fractional indexes for the moved shapes only. */
class ReorderVerbTest {
  final VerbHarness reorder = new VerbHarness("reorder");
  final Board board =
      board(
          at("a1", geo("A", 0, 0, 10, 10)),
          at("a2", geo("B", 0, 0, 10, 10)),
          at("a3", geo("C", 0, 0, 10, 10)),
          at("a4", geo("D", 0, 0, 10, 10)),
          at("a5", geo("E", 0, 0, 10, 10)));

  static JsonObject to(String to, String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes)).put("to", to);
  }

  static List<String> order(Board board, String parent) {
    return new ShapeTree(board)
        .children(parent).stream().map(shape -> shape.getString("id").substring(6)).toList();
  }

  @Test
  void toTheFront() {
    assertEquals(
        List.of("A", "C", "D", "E", "B"),
        order(reorder.apply(board, to("front", "B")), "page:page"));
    assertEquals(
        List.of("C", "E", "A", "B", "D"),
        order(reorder.apply(board, to("front", "D", "B", "A")), "page:page"),
        "the moved shapes keep their order among themselves");
  }

  @Test
  void toTheBack() {
    assertEquals(
        List.of("D", "A", "B", "C", "E"),
        order(reorder.apply(board, to("back", "D")), "page:page"));
  }

  @Test
  void oneStepForwardPastTheNextShape() {
    assertEquals(
        List.of("A", "C", "B", "D", "E"),
        order(reorder.apply(board, to("forward", "B")), "page:page"));
    assertEquals(
        List.of("C", "A", "B", "D", "E"),
        order(reorder.apply(board, to("forward", "A", "B")), "page:page"),
        "a run of shapes moves as one");
  }

  @Test
  void oneStepBackward() {
    assertEquals(
        List.of("A", "B", "D", "C", "E"),
        order(reorder.apply(board, to("backward", "D")), "page:page"));
    assertEquals(
        List.of("B", "A", "D", "C", "E"),
        order(reorder.apply(board, to("backward", "B", "D")), "page:page"));
  }

  @Test
  void onlyTheMovedShapesGetNewIndexes() {
    var diff = reorder.sanitize(board, to("front", "B")).diff();
    assertEquals(1, diff.put().size());
    assertEquals("shape:B", diff.put().get(0).getString("id"));
    assertTrue(diff.put().get(0).getString("index").compareTo("a5") > 0);
  }

  @Test
  void aShapeAlreadyThereChangesNothing() {
    assertTrue(reorder.sanitize(board, to("front", "E")).diff().isEmpty());
    assertTrue(reorder.sanitize(board, to("backward", "A")).diff().isEmpty());
  }

  @Test
  void shapesAreReorderedAmongTheirOwnSiblings() {
    Board grouped =
        board(
            at("a1", geo("A", 0, 0, 10, 10)),
            at("a2", group("G", 0, 0)),
            at("a3", geo("B", 0, 0, 10, 10)),
            at("a1", in("G", geo("x", 0, 0, 10, 10))),
            at("a2", in("G", geo("y", 0, 0, 10, 10))));
    Board next = reorder.apply(grouped, to("back", "y", "B"));
    assertEquals(List.of("y", "x"), order(next, "shape:G"));
    assertEquals(List.of("B", "A", "G"), order(next, "page:page"));
  }

  @Test
  void repeatedReorderingKeepsValidDistinctKeys() {
    Board next = board;
    for (int i = 0; i < 60; i++) {
      next = reorder.apply(next, to(i % 2 == 0 ? "forward" : "back", i % 3 == 0 ? "C" : "D"));
    }
    assertEquals(5, order(next, "page:page").size());
  }

  @Test
  void siblingsWithoutValidDistinctIndexesAreRejected() {
    Board clashing = board(at("a1", geo("A", 0, 0, 10, 10)), at("a1", geo("B", 0, 0, 10, 10)));
    assertTrue(reorder.rejected(clashing, to("front", "A")).getMessage().contains("indexes"));
    Board invalid = board(at("a10", geo("A", 0, 0, 10, 10)), at("a2", geo("B", 0, 0, 10, 10)));
    reorder.rejected(invalid, to("back", "B"));
  }

  @Test
  void anUnknownDirectionIsRefused() {
    assertTrue(reorder.violations(to("top", "A")).isPresent());
    assertTrue(reorder.rejectedUnchecked(board, to("top", "A")).getMessage().contains("top"));
  }
}
