package dev.canvasagent.board.geometry;

import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.note;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.support.GeneratedBoards;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The shape index answers exactly what measuring every shape answers: the painted shapes in paint
 * order with their page bounds, the shapes inside a viewport, the clusters around it; on random
 * boards and viewports, and after random diffs (moves, rotations, reparenting, cycles, deletions)
 * carried forward by {@link Board#apply}.
 */
class ShapeIndexTest {
  // The full scan the index replaces.

  /** Depth first from each page (pages by id), siblings by index then id, over every record. */
  static List<String> scannedPaintOrder(Board board) {
    Map<String, List<JsonObject>> children = new HashMap<>();
    Set<String> pages = new TreeSet<>();
    board
        .records()
        .forEach(
            (id, record) -> {
              if ("shape".equals(record.getValue("typeName")) && id.equals(record.getValue("id"))) {
                String parent = ShapeTree.parentId(record);
                children.computeIfAbsent(parent, key -> new ArrayList<>()).add(record);
                if (ShapeTree.isPage(parent)) {
                  pages.add(parent);
                }
              }
            });
    children
        .values()
        .forEach(
            list ->
                list.sort(
                    Comparator.comparing(ShapeTree::index)
                        .thenComparing(record -> record.getString("id"))));
    List<String> order = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String page : pages) {
      Deque<Map.Entry<String, Integer>> pending = new ArrayDeque<>();
      push(children, page, 0, pending);
      while (!pending.isEmpty()) {
        Map.Entry<String, Integer> next = pending.pop();
        if (!seen.add(next.getKey()) || next.getValue() > ShapeTree.MAX_DEPTH) {
          continue;
        }
        order.add(next.getKey());
        push(children, next.getKey(), next.getValue() + 1, pending);
      }
    }
    return order;
  }

  private static void push(
      Map<String, List<JsonObject>> children,
      String parent,
      int depth,
      Deque<Map.Entry<String, Integer>> pending) {
    List<JsonObject> list = children.getOrDefault(parent, List.of());
    for (int i = list.size() - 1; i >= 0; i--) {
      pending.push(Map.entry(list.get(i).getString("id"), depth));
    }
  }

  static List<GridCluster> scannedClusters(Board board, Box view, ClusterGrid grid) {
    ShapeGeometry geometry = new ShapeGeometry(board);
    Map<List<Long>, GridCluster> cells = new TreeMap<>(CELLS);
    for (String id : scannedPaintOrder(board)) {
      Box bounds = geometry.pageBounds(id).orElse(null);
      if (bounds == null || bounds.isWithin(view)) {
        continue;
      }
      List<Long> cell = grid.cellOf(bounds.centerX(), bounds.centerY());
      cells.merge(
          cell,
          new GridCluster(cell.get(0), cell.get(1), bounds, 1),
          (a, b) ->
              new GridCluster(
                  a.row(), a.column(), a.bounds().union(b.bounds()), a.count() + b.count()));
    }
    return List.copyOf(cells.values());
  }

  private static final Comparator<List<Long>> CELLS =
      Comparator.<List<Long>>comparingLong(cell -> cell.get(0))
          .thenComparingLong(cell -> cell.get(1));

  /** Every answer of the index against the full scan, for a few viewports. */
  static void assertAnswersAsAScan(Board board, ShapeIndex index, Random random, String label) {
    List<String> order = scannedPaintOrder(board);
    assertEquals(order, index.paintOrder().stream().map(ShapeIndex.Placed::id).toList(), label);
    assertEquals(order.size(), index.size(), label);
    ShapeGeometry geometry = new ShapeGeometry(board);
    for (String id : order) {
      ShapeIndex.Placed placed = index.placed(id).orElseThrow();
      assertEquals(geometry.pageBounds(id).orElse(null), placed.bounds(), label + " " + id);
      assertEquals(board.records().get(id), placed.record(), label + " " + id);
    }
    for (int i = 0; i < 4; i++) {
      double w = 50 + random.nextDouble() * (i == 3 ? 40_000 : 3_000);
      double h = 50 + random.nextDouble() * (i == 3 ? 40_000 : 3_000);
      Box view =
          Box.of(random.nextDouble() * 8_000 - 4_000, random.nextDouble() * 8_000 - 4_000, w, h);
      List<String> inside =
          order.stream()
              .filter(
                  id -> geometry.pageBounds(id).map(bounds -> bounds.isWithin(view)).orElse(false))
              .toList();
      assertEquals(
          inside,
          index.within(view).stream().map(ShapeIndex.Placed::id).toList(),
          label + " " + view);
      ClusterGrid grid = new ClusterGrid(view.minX(), view.minY(), Math.max(w, 1), Math.max(h, 1));
      List<GridCluster> clusters = new ArrayList<>(index.clustersOutside(view, grid));
      clusters.sort(
          Comparator.comparing(cluster -> List.of(cluster.row(), cluster.column()), CELLS));
      assertEquals(scannedClusters(board, view, grid), clusters, label + " " + view);
    }
  }

  @Test
  void onRandomBoardsTheIndexAnswersWhatAFullScanAnswers() {
    for (long seed = 1; seed <= 40; seed++) {
      Random random = new Random(seed);
      Board board = GeneratedBoards.generate(seed, 20 + random.nextInt(200));
      assertAnswersAsAScan(board, ShapeIndex.of(board), random, "seed " + seed);
    }
  }

  @Test
  void carriedForwardThroughRandomDiffsTheIndexAnswersWhatAFullScanAnswers() {
    for (long seed = 1; seed <= 15; seed++) {
      Random random = new Random(seed);
      Board board = GeneratedBoards.generate(seed, 60 + random.nextInt(100));
      board.shapeIndex(); // built once; every apply below carries it forward
      for (int step = 0; step < 25; step++) {
        RecordDiff diff = new RandomDiffs(board, random).next();
        board = board.apply(diff, board.revision() + 1);
        assertAnswersAsAScan(
            board,
            board.shapeIndex(),
            random,
            "seed " + seed + " step " + step + " " + diff.toJson().encode());
      }
      assertEquals(
          ShapeIndex.of(board).paintOrder().stream().map(ShapeIndex.Placed::id).toList(),
          board.shapeIndex().paintOrder().stream().map(ShapeIndex.Placed::id).toList());
    }
  }

  @Test
  void shapesFarOutOnThePageShareTheOutermostCellsAndAreStillAnsweredExactly() {
    Board board =
        new Board(
            "room-1",
            1,
            Map.of(
                "shape:far",
                at("a1", in(ShapeRecords.PAGE_ID, note("far", 1e12, -1e12))),
                "shape:farther",
                at("a2", in(ShapeRecords.PAGE_ID, note("farther", 3e12, -5e12))),
                "shape:near",
                at("a3", in(ShapeRecords.PAGE_ID, note("near", 10, 10)))));
    assertAnswersAsAScan(board, ShapeIndex.of(board), new Random(7), "far");
    Box view = new Box(-1, -1e13, 1e13, 1);
    assertEquals(
        List.of("shape:far", "shape:farther"),
        ShapeIndex.of(board).within(view).stream().map(ShapeIndex.Placed::id).toList());
  }

  @Test
  void aGroupIsRemeasuredWhenAMemberMoves() {
    Board board =
        new Board(
            "room-1",
            1,
            Map.of(
                "shape:g",
                at("a1", in(ShapeRecords.PAGE_ID, group("g", 0, 0))),
                "shape:m",
                at("a1", in("g", note("m", 0, 0)))));
    assertEquals(
        new Box(0, 0, 200, 200), board.shapeIndex().placed("shape:g").orElseThrow().bounds());
    Board moved = board.apply(RecordDiff.putting(at("a1", in("g", note("m", 1000, 0)))), 2);
    assertEquals(
        new Box(1000, 0, 1200, 200), moved.shapeIndex().placed("shape:g").orElseThrow().bounds());
  }
}
