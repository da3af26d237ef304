package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.assertBox;
import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.catalog.verbs.VerbHarness.record;
import static dev.canvasagent.support.TestShapes.arrow;
import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.ShapeTree;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ungroup}: the group removed, its children on its parent where it was, unmoved on the page. */
class UngroupVerbTest {
  final VerbHarness ungroup = new VerbHarness("ungroup");
  final Board board =
      board(
          at("a1", geo("below", 0, 0, 10, 10)),
          at("a2", rotated(Math.PI / 2, group("g", 300, 100))),
          at("a3", geo("above", 0, 0, 10, 10)),
          at("a1", in("g", geo("x", 0, 0, 40, 20))),
          at("a2", in("g", rotated(0.5, geo("y", 60, 10, 20, 20)))));

  static JsonObject ungrouping(String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes));
  }

  @Test
  void theChildrenStayWhereTheyAreOnThePageAndTheGroupIsGone() {
    var diff = ungroup.sanitize(board, ungrouping("g")).diff();
    assertEquals(List.of("shape:g"), diff.remove());
    Board next = board.apply(diff, 2);
    for (String child : List.of("x", "y")) {
      assertEquals("page:page", record(next, child).getString("parentId"));
      assertBox(bounds(board, child), bounds(next, child));
    }
    assertEquals(Math.PI / 2 + 0.5, record(next, "y").getDouble("rotation"), 1e-9);
    assertEquals(300.0, record(next, "x").getDouble("x"), 1e-9);
    assertEquals(100.0, record(next, "x").getDouble("y"), 1e-9);
  }

  @Test
  void theChildrenTakeTheGroupsPlaceInTheStackingOrder() {
    Board next = ungroup.apply(board, ungrouping("g"));
    List<String> order =
        new ShapeTree(next)
            .children("page:page").stream().map(shape -> shape.getString("id")).toList();
    assertEquals(List.of("shape:below", "shape:x", "shape:y", "shape:above"), order);
  }

  @Test
  void aGroupInAFrameLeavesItsChildrenInTheFrame() {
    Board framed =
        board(
            rotated(0.4, frame("f", 50, 50, 400, 400)),
            in("f", group("g", 20, 30)),
            in("g", geo("x", 5, 5, 10, 10)));
    Board next = ungroup.apply(framed, ungrouping("g"));
    assertEquals("shape:f", record(next, "x").getString("parentId"));
    assertBox(bounds(framed, "x"), bounds(next, "x"));
  }

  @Test
  void anEmptyGroupIsJustRemoved() {
    var diff = ungroup.sanitize(board(group("empty", 0, 0)), ungrouping("empty")).diff();
    assertEquals(List.of("shape:empty"), diff.remove());
    assertTrue(diff.put().isEmpty());
  }

  @Test
  void aShapeThatIsNotAGroupIsRejected() {
    assertEquals(
        "'below' is not a group", ungroup.rejected(board, ungrouping("g", "below")).getMessage());
  }

  @Test
  void aGroupInsideAnotherNamedGroupIsRejected() {
    Board nested =
        board(
            group("outer", 0, 0),
            in("outer", group("inner", 0, 0)),
            in("inner", geo("x", 0, 0, 10, 10)));
    assertTrue(
        ungroup
            .rejected(nested, ungrouping("inner", "outer"))
            .getMessage()
            .contains("inside another"));
    Board next = ungroup.apply(nested, ungrouping("outer"));
    assertEquals("page:page", record(next, "inner").getString("parentId"));
  }

  @Test
  void anArrowBoundToTheGroupLetsGoOfIt() {
    JsonObject toGroup = ArrowBindings.binding("shape:arrow", "end", "shape:g");
    JsonObject toChild = ArrowBindings.binding("shape:arrow", "start", "shape:x");
    Board bound =
        board(
            at("a1", group("g", 300, 100)),
            at("a1", in("g", geo("x", 0, 0, 40, 20))),
            at("a2", in("g", geo("y", 60, 10, 20, 20))),
            at("a2", arrow("arrow", 0, 0, 100, 40)),
            toGroup,
            toChild);

    var diff = ungroup.sanitize(bound, ungrouping("g")).diff();

    assertEquals(List.of("shape:g", toGroup.getString("id")), diff.remove());
    Board next = bound.apply(diff, 2);
    assertEquals(
        toChild, next.record(toChild.getString("id")).orElseThrow(), "its other end holds");
  }
}
