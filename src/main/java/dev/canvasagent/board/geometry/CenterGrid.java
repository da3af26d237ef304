package dev.canvasagent.board.geometry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.TreePMap;

/**
 * Shapes bucketed by the centre of their page bounds, persistently: level 0 cuts the page into
 * {@value #CELL_SIZE}-unit cells holding the shapes' ids and bounds; each level above has cells twice
 * as wide, each holding only the {@link CellSummary} of its four children. A query starts at the top
 * level and opens a cell only when its summary cannot answer for it, so it reads the shapes near
 * what it asks about and the summaries of the rest. Changing a shape rewrites one level-0 cell and
 * one summary per level.
 */
final class CenterGrid {
  static final double CELL_SIZE = 64;
  static final int LEVELS = 12;

  static final CenterGrid EMPTY = new CenterGrid(HashTreePMap.empty(), emptyLevels());

  private final PMap<Long, TreePMap<String, Box>> cells;
  private final List<PMap<Long, CellSummary>> summaries;

  private CenterGrid(
      PMap<Long, TreePMap<String, Box>> cells, List<PMap<Long, CellSummary>> summaries) {
    this.cells = cells;
    this.summaries = summaries;
  }

  private static List<PMap<Long, CellSummary>> emptyLevels() {
    List<PMap<Long, CellSummary>> levels = new ArrayList<>();
    for (int level = 0; level < LEVELS; level++) {
      levels.add(HashTreePMap.empty());
    }
    return List.copyOf(levels);
  }

  /** Changes made one shape at a time, the summaries brought up to date once at the end. */
  final class Edit {
    private PMap<Long, TreePMap<String, Box>> editedCells = cells;
    private final Set<Long> dirty = new HashSet<>();

    void plus(String id, Box bounds) {
      long key = cellOf(bounds);
      TreePMap<String, Box> cell = editedCells.get(key);
      editedCells =
          editedCells.plus(
              key, (cell == null ? TreePMap.<String, Box>empty() : cell).plus(id, bounds));
      dirty.add(key);
    }

    void minus(String id, Box bounds) {
      long key = cellOf(bounds);
      TreePMap<String, Box> cell = editedCells.get(key);
      if (cell == null) {
        return;
      }
      TreePMap<String, Box> rest = cell.minus(id);
      editedCells = rest.isEmpty() ? editedCells.minus(key) : editedCells.plus(key, rest);
      dirty.add(key);
    }

    CenterGrid done() {
      List<PMap<Long, CellSummary>> levels = new ArrayList<>(summaries);
      Set<Long> keys = dirty;
      for (int level = 0; level < LEVELS; level++) {
        PMap<Long, CellSummary> summariesHere = levels.get(level);
        Set<Long> parents = new HashSet<>();
        for (long key : keys) {
          CellSummary summary =
              level == 0 ? summarize(editedCells.get(key)) : summarize(levels.get(level - 1), key);
          summariesHere =
              summary == null ? summariesHere.minus(key) : summariesHere.plus(key, summary);
          parents.add(parent(key));
        }
        levels.set(level, summariesHere);
        keys = parents;
      }
      return new CenterGrid(editedCells, List.copyOf(levels));
    }
  }

  Edit edit() {
    return new Edit();
  }

  /**
   * Every shape whose centre may lie in the closed box {@code area} (with, possibly, some near it):
   * a shape fully inside {@code area} is always among them.
   */
  void forEachNear(Box area, BiConsumer<String, Box> visit) {
    int top = LEVELS - 1;
    summaries.get(top).forEach((key, summary) -> visitNear(top, key, summary, area, visit));
  }

  private void visitNear(
      int level, long key, CellSummary summary, Box area, BiConsumer<String, Box> visit) {
    if (!summary.centersMayTouch(area)) {
      return;
    }
    if (level == 0) {
      cells.get(key).forEach(visit);
      return;
    }
    for (long child : children(key)) {
      CellSummary below = summaries.get(level - 1).get(child);
      if (below != null) {
        visitNear(level - 1, child, below, area, visit);
      }
    }
  }

  /**
   * The shapes not fully inside {@code view}, grouped by the cell of {@code grid} holding their
   * centre. Cells whose shapes all fall in one grid cell, away from the view, are taken whole from
   * their summaries.
   */
  List<GridCluster> clustersOutside(Box view, ClusterGrid grid) {
    Map<List<Long>, CellSummary> clusters = new HashMap<>();
    int top = LEVELS - 1;
    summaries.get(top).forEach((key, summary) -> cluster(top, key, summary, view, grid, clusters));
    List<GridCluster> found = new ArrayList<>();
    clusters.forEach(
        (cell, summary) ->
            found.add(
                new GridCluster(cell.get(0), cell.get(1), summary.bounds(), summary.count())));
    return found;
  }

  private void cluster(
      int level,
      long key,
      CellSummary summary,
      Box view,
      ClusterGrid grid,
      Map<List<Long>, CellSummary> clusters) {
    Box centers = summary.centers();
    List<Long> first = grid.cellOf(centers.minX(), centers.minY());
    if (!summary.centersMayTouch(view)
        && first.equals(grid.cellOf(centers.maxX(), centers.maxY()))) {
      clusters.merge(first, summary, CellSummary::plus);
      return;
    }
    if (level == 0) {
      cells
          .get(key)
          .forEach(
              (id, bounds) -> {
                if (!bounds.isWithin(view)) {
                  clusters.merge(
                      grid.cellOf(bounds.centerX(), bounds.centerY()),
                      CellSummary.of(bounds),
                      CellSummary::plus);
                }
              });
      return;
    }
    for (long child : children(key)) {
      CellSummary below = summaries.get(level - 1).get(child);
      if (below != null) {
        cluster(level - 1, child, below, view, grid, clusters);
      }
    }
  }

  private static CellSummary summarize(TreePMap<String, Box> cell) {
    if (cell == null) {
      return null;
    }
    CellSummary sum = null;
    for (Box bounds : cell.values()) {
      sum = sum == null ? CellSummary.of(bounds) : sum.plus(CellSummary.of(bounds));
    }
    return sum;
  }

  private static CellSummary summarize(PMap<Long, CellSummary> below, long key) {
    CellSummary sum = null;
    for (long child : children(key)) {
      CellSummary part = below.get(child);
      if (part != null) {
        sum = sum == null ? part : sum.plus(part);
      }
    }
    return sum;
  }

  /** The level-0 cell of a shape's centre; far-away centres share the outermost cells. */
  private static long cellOf(Box bounds) {
    return key(coordinate(bounds.centerX()), coordinate(bounds.centerY()));
  }

  private static int coordinate(double value) {
    double cell = Math.floor(value / CELL_SIZE);
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, cell));
  }

  private static long key(int x, int y) {
    return ((long) x << 32) | (y & 0xffffffffL);
  }

  private static long parent(long key) {
    return key((int) (key >> 32) >> 1, (int) key >> 1);
  }

  private static long[] children(long key) {
    int x = (int) (key >> 32) << 1;
    int y = (int) key << 1;
    return new long[] {key(x, y), key(x + 1, y), key(x, y + 1), key(x + 1, y + 1)};
  }
}
