package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbHarness.assertBox;
import static dev.canvasagent.catalog.verbs.VerbHarness.bounds;
import static dev.canvasagent.catalog.verbs.VerbHarness.ids;
import static dev.canvasagent.catalog.verbs.VerbHarness.record;
import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.note;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.ShapeTree;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code group}: a new group where its members are, the members unmoved on the page and reparented. */
class GroupVerbTest {
  final VerbHarness group = new VerbHarness("group");
  final Board board =
      board(
          at("a1", geo("a", 100, 50, 100, 50)),
          at("a3", rotated(Math.PI / 2, geo("b", 400, 200, 100, 20))),
          at("a2", note("n", 0, 500)));

  static JsonObject grouping(String... shapes) {
    return new JsonObject().put("shapeIds", ids(shapes));
  }

  @Test
  void theGroupSitsAtItsMembersTopLeftAndTheyStayWhereTheyAre() {
    Board next = group.apply(board, grouping("a", "b").put("groupId", "pair"));
    JsonObject pair = record(next, "pair");
    assertEquals("group", pair.getString("type"));
    assertEquals(new JsonObject(), pair.getJsonObject("props"));
    assertEquals("page:page", pair.getString("parentId"));
    assertEquals(100.0, pair.getDouble("x"), 1e-9);
    assertEquals(50.0, pair.getDouble("y"), 1e-9);
    assertEquals(0.0, pair.getDouble("rotation"));
    assertEquals("a3", pair.getString("index"), "where its highest member was");

    for (String member : List.of("a", "b")) {
      assertEquals("shape:pair", record(next, member).getString("parentId"));
      assertBox(bounds(board, member), bounds(next, member));
    }
    assertEquals(0.0, record(next, "a").getDouble("x"), 1e-9);
    assertTrue(
        record(next, "a").getString("index").compareTo(record(next, "b").getString("index")) < 0,
        "order kept");
    assertEquals(record(board, "n"), record(next, "n"));
  }

  @Test
  void withoutAGroupIdTheGroupGetsANewAgentId() {
    var diff = group.sanitize(board, grouping("a", "n")).diff();
    JsonObject created =
        diff.put().stream()
            .filter(record -> "group".equals(record.getString("type")))
            .findFirst()
            .orElseThrow();
    assertTrue(created.getString("id").startsWith("shape:ag:"), created.getString("id"));
  }

  @Test
  void membersInARotatedFrameAreGroupedInTheFrame() {
    Board framed =
        board(
            rotated(0.8, frame("f", 300, 300, 500, 500)),
            in("f", geo("x", 40, 60, 50, 50)),
            in("f", rotated(0.3, geo("y", 200, 100, 80, 40))));
    Board next = group.apply(framed, grouping("x", "y").put("groupId", "inside"));
    assertEquals("shape:f", record(next, "inside").getString("parentId"));
    assertBox(bounds(framed, "x"), bounds(next, "x"));
    assertBox(bounds(framed, "y"), bounds(next, "y"));
  }

  @Test
  void aGroupIdThatExistsIsRejected() {
    assertTrue(
        group
            .rejected(board, grouping("a", "b").put("groupId", "n"))
            .getMessage()
            .contains("already exists"));
    assertTrue(group.violations(grouping("a", "b").put("groupId", "shape:x y")).isPresent());
    assertTrue(
        group
            .rejectedUnchecked(board, grouping("a", "b").put("groupId", "x y"))
            .getMessage()
            .contains("groupId"));
  }

  @Test
  void aGroupWithItsOwnChildIsRejected() {
    Board grouped =
        board(group("g", 0, 0), in("g", geo("c", 0, 0, 10, 10)), in("g", geo("d", 20, 0, 10, 10)));
    assertTrue(
        group.rejected(grouped, grouping("g", "c")).getMessage().contains("'c' is inside 'g'"));
    Board nested =
        board(group("g", 0, 0), in("g", group("h", 0, 0)), in("h", geo("c", 0, 0, 10, 10)));
    assertTrue(group.rejected(nested, grouping("c", "g")).getMessage().contains("inside"));
  }

  @Test
  void shapesWithDifferentParentsAreRejected() {
    Board mixed =
        board(geo("a", 0, 0, 10, 10), frame("f", 0, 0, 100, 100), in("f", geo("c", 0, 0, 10, 10)));
    assertTrue(
        group.rejected(mixed, grouping("a", "c")).getMessage().contains("different parents"));
  }

  @Test
  void oneShapeNamedTwiceIsNotAGroup() {
    assertTrue(group.rejected(board, grouping("a", "shape:a")).getMessage().contains("at least 2"));
  }

  static List<JsonObject> groupsDeep(int depth) {
    List<JsonObject> records = new ArrayList<>();
    records.add(group("g0", 0, 0));
    for (int level = 1; level < depth; level++) {
      records.add(in("g" + (level - 1), group("g" + level, 0, 0)));
    }
    records.add(in("g" + (depth - 1), geo("x", 0, 0, 10, 10)));
    records.add(in("g" + (depth - 1), geo("y", 20, 0, 10, 10)));
    return records;
  }

  @Test
  void shapesFiftyGroupsDeepCanBeGroupedAgain() {
    Board deep = board(groupsDeep(50));
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          Board next = group.apply(deep, grouping("x", "y").put("groupId", "inner"));
          assertEquals("shape:g49", record(next, "inner").getString("parentId"));
          assertBox(bounds(deep, "y"), bounds(next, "y"));
        });
  }

  @Test
  void groupingBeyondTheDepthLimitIsRejected() {
    Board atLimit = board(groupsDeep(ShapeTree.MAX_DEPTH));
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () ->
            assertTrue(
                group.rejected(atLimit, grouping("x", "y")).getMessage().contains("levels deep")));

    Board tooDeep = board(groupsDeep(ShapeTree.MAX_DEPTH + 100));
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () ->
            assertTrue(
                group.rejected(tooDeep, grouping("x", "y")).getMessage().contains("levels deep")));
  }

  @Test
  void groupingTheOutermostOfADeepChainCountsWhatIsInside() {
    List<JsonObject> justFits = new ArrayList<>(groupsDeep(ShapeTree.MAX_DEPTH - 1));
    justFits.add(geo("beside", 500, 0, 10, 10));
    group.apply(board(justFits), grouping("g0", "beside"));

    List<JsonObject> oneTooMany = new ArrayList<>(groupsDeep(ShapeTree.MAX_DEPTH));
    oneTooMany.add(geo("beside", 500, 0, 10, 10));
    assertTrue(
        group
            .rejected(board(oneTooMany), grouping("g0", "beside"))
            .getMessage()
            .contains("levels deep"));
  }
}
