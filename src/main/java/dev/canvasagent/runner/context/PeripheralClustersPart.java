package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shapes not fully inside the viewport, grouped into {@code {bounds, count}} so the model knows
 * what lies around the view without reading every shape. Clustering is a grid: the page is cut into
 * cells the size of the viewport, aligned with it (the viewport is cell 0,0), and a shape belongs to
 * the cell holding the centre of its bounds; a cluster's bounds are the union of its shapes'. The
 * same board and viewport always give the same clusters. Biggest clusters first (then by row and
 * column), so a short budget drops the smallest.
 */
final class PeripheralClustersPart implements PromptPart<Void> {
  @Override
  public String name() {
    return "peripheral";
  }

  @Override
  public int priority() {
    return 90;
  }

  @Override
  public boolean memoizable() {
    return true;
  }

  @Override
  public String describedAs() {
    return "off-screen shapes grouped into clusters {bounds, count}";
  }

  /** One grid cell's shapes. */
  private static final class Cluster {
    final long row;
    final long column;
    Box bounds;
    int count;

    Cluster(long row, long column) {
      this.row = row;
      this.column = column;
    }
  }

  private static final Comparator<Cluster> ORDER =
      Comparator.comparingInt((Cluster cluster) -> -cluster.count)
          .thenComparingLong(cluster -> cluster.row)
          .thenComparingLong(cluster -> cluster.column);

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    Viewport viewport = scope.inputs().viewport();
    List<BoardView.Shape> outside = scope.view().outOfView(viewport);
    if (outside.isEmpty()) {
      return PartOutput.empty(this).withStats(new JsonObject().put("clusters", 0));
    }
    List<Cluster> clusters = clusters(outside, viewport);
    CoordinateFrame frame = scope.frame();
    List<JsonObject> rendered =
        clusters.stream()
            .map(
                cluster ->
                    new JsonObject()
                        .put(
                            "bounds",
                            new JsonObject()
                                .put("x", frame.toModel(null, "x", cluster.bounds.minX()))
                                .put("y", frame.toModel(null, "y", cluster.bounds.minY()))
                                .put("w", Math.round(cluster.bounds.width()))
                                .put("h", Math.round(cluster.bounds.height())))
                        .put("count", cluster.count))
            .toList();
    BudgetedList<JsonObject> list =
        BudgetedList.of(
            "Off-screen shapes, clustered {bounds, count}",
            rendered,
            JsonObject::encode,
            budgetBytes,
            BudgetedList.Keep.FIRST);
    JsonObject stats =
        new JsonObject().put("clusters", list.kept().size()).put("outOfView", outside.size());
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation().withStats(stats);
    }
    return PartOutput.section(
            this,
            ModelContext.PERIPHERAL,
            new JsonArray(List.copyOf(list.kept())),
            list.text(),
            list.truncated())
        .withStats(stats);
  }

  static List<Cluster> clusters(List<BoardView.Shape> shapes, Viewport viewport) {
    double cellW = Math.max(viewport.w(), 1);
    double cellH = Math.max(viewport.h(), 1);
    Map<List<Long>, Cluster> cells =
        new TreeMap<>(
            Comparator.<List<Long>>comparingLong(cell -> cell.get(0))
                .thenComparingLong(cell -> cell.get(1)));
    for (BoardView.Shape shape : shapes) {
      long row = (long) Math.floor((shape.bounds().centerY() - viewport.y()) / cellH);
      long column = (long) Math.floor((shape.bounds().centerX() - viewport.x()) / cellW);
      Cluster cluster =
          cells.computeIfAbsent(List.of(row, column), cell -> new Cluster(row, column));
      cluster.bounds =
          cluster.bounds == null ? shape.bounds() : cluster.bounds.union(shape.bounds());
      cluster.count++;
    }
    List<Cluster> ordered = new ArrayList<>(cells.values());
    ordered.sort(ORDER);
    return ordered;
  }
}
