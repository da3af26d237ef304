package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.geometry.GridCluster;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The shapes not fully inside the viewport, grouped into {@code {bounds, count}} so the model knows
 * what lies around the view without reading every shape. Clustering is a grid: the page is cut into
 * cells the size of the viewport, aligned with it (the viewport is cell 0,0), and a shape belongs to
 * the cell holding the centre of its bounds; a cluster's bounds are the union of its shapes'. The
 * same board and viewport always give the same clusters. Biggest clusters first (then by row and
 * column), so a short budget drops the smallest. The board's {@link
 * dev.canvasagent.board.geometry.ShapeIndex} counts them: the shapes near the view and on the
 * clusters' edges are read one by one, the rest as whole cells of the index.
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
  public boolean inRoomView() {
    return true;
  }

  @Override
  public boolean memoizable() {
    return true;
  }

  @Override
  public String describedAs() {
    return "off-screen shapes grouped into clusters {bounds, count}";
  }

  private static final Comparator<GridCluster> ORDER =
      Comparator.comparingInt((GridCluster cluster) -> -cluster.count())
          .thenComparingLong(GridCluster::row)
          .thenComparingLong(GridCluster::column);

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    Viewport viewport = scope.inputs().viewport();
    List<GridCluster> clusters = new ArrayList<>(scope.view().clustersOutOfView(viewport));
    if (clusters.isEmpty()) {
      return PartOutput.empty(this).withStats(new JsonObject().put("clusters", 0));
    }
    clusters.sort(ORDER);
    int outside = clusters.stream().mapToInt(GridCluster::count).sum();
    CoordinateFrame frame = scope.frame();
    List<JsonObject> rendered =
        clusters.stream()
            .map(
                cluster ->
                    new JsonObject()
                        .put(
                            "bounds",
                            new JsonObject()
                                .put("x", frame.toModel(null, "x", cluster.bounds().minX()))
                                .put("y", frame.toModel(null, "y", cluster.bounds().minY()))
                                .put("w", Math.round(cluster.bounds().width()))
                                .put("h", Math.round(cluster.bounds().height())))
                        .put("count", cluster.count()))
            .toList();
    BudgetedList<JsonObject> list =
        BudgetedList.of(
            "Off-screen shapes, clustered {bounds, count}",
            rendered,
            JsonObject::encode,
            budgetBytes,
            BudgetedList.Keep.FIRST);
    JsonObject stats =
        new JsonObject().put("clusters", list.kept().size()).put("outOfView", outside);
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
}
