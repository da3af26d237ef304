package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeLocks;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ClusterGrid;
import dev.canvasagent.board.geometry.GridCluster;
import dev.canvasagent.board.geometry.ShapeIndex;
import dev.canvasagent.bus.Viewport;
import io.vertx.core.json.JsonObject;
import java.util.Iterator;
import java.util.List;

/**
 * The board's shapes as the context parts read them: in paint order (back to front, as tldraw paints
 * them: each page's children by index, a shape's children right after it), each with its page bounds,
 * and the arrow bindings by arrow. Read from the board's {@link ShapeIndex}, so a part pays for the
 * shapes it asks about (those in view, the selection, the clusters around), not for the whole board;
 * only {@link #paintOrder()} reads every shape.
 */
final class BoardView {
  /** A shape and its page bounds (null when it cannot be measured). */
  record Shape(String recordId, JsonObject record, Box bounds) {
    static Shape of(ShapeIndex.Placed placed) {
      return new Shape(placed.id(), placed.record(), placed.bounds());
    }
  }

  private final Board board;
  private final ShapeIndex index;
  private final ShapeLocks locks;
  private List<Shape> paintOrder;

  BoardView(Board board) {
    this.board = board;
    this.index = board.shapeIndex();
    this.locks = new ShapeLocks(board);
  }

  Board board() {
    return board;
  }

  /** How many shapes are painted (reach a page). */
  int shapeCount() {
    return index.size();
  }

  /** Every shape reachable from a page, back to front: reads the whole board, once per view. */
  List<Shape> paintOrder() {
    if (paintOrder == null) {
      paintOrder = index.paintOrder().stream().map(Shape::of).toList();
    }
    return paintOrder;
  }

  /** The same shapes as {@link #paintOrder()}, read only as far as the caller goes. */
  Iterator<Shape> paintOrderLazily() {
    Iterator<ShapeIndex.Placed> placed = index.paintOrder().iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return placed.hasNext();
      }

      @Override
      public Shape next() {
        return Shape.of(placed.next());
      }
    };
  }

  /** The painted shape with that record id, or null. */
  Shape shape(String recordId) {
    return index.placed(recordId).map(Shape::of).orElse(null);
  }

  /** Whether a person's lock holds the shape: it is locked, or inside a locked frame or group. */
  boolean locked(String recordId) {
    return locks.holds(recordId);
  }

  /**
   * The shape an arrow's {@code start} or {@code end} is bound to, or null; of two arrow bindings for
   * the same end (which tldraw never makes), the one with the greater id.
   */
  String arrowTarget(String arrowId, String terminal) {
    String target = null;
    for (String bindingId : board.bindingIds(arrowId)) {
      JsonObject binding = board.records().get(bindingId);
      if ("arrow".equals(binding.getValue("type"))
          && arrowId.equals(binding.getValue("fromId"))
          && binding.getValue("toId") instanceof String to
          && binding.getValue("props") instanceof JsonObject props
          && terminal.equals(props.getValue("terminal"))) {
        target = to;
      }
    }
    return target;
  }

  /** The shapes fully inside the viewport, back to front; every measurable shape when there is no viewport. */
  List<Shape> inView(Viewport viewport) {
    if (viewport == null) {
      return index.paintOrder().stream()
          .filter(placed -> placed.bounds() != null)
          .map(Shape::of)
          .toList();
    }
    return index.within(box(viewport)).stream().map(Shape::of).toList();
  }

  /**
   * The measurable shapes not fully inside the viewport, clustered by the cell of a grid of
   * viewport-sized cells aligned with the viewport (it is row 0, column 0) that holds their centre;
   * none when there is no viewport.
   */
  List<GridCluster> clustersOutOfView(Viewport viewport) {
    if (viewport == null) {
      return List.of();
    }
    ClusterGrid grid =
        new ClusterGrid(
            viewport.x(), viewport.y(), Math.max(viewport.w(), 1), Math.max(viewport.h(), 1));
    return index.clustersOutside(box(viewport), grid);
  }

  /** The page bounds of every measurable shape together, or null on a board without one. */
  Box bounds() {
    Box all = null;
    for (Shape shape : inView(null)) {
      all = all == null ? shape.bounds() : all.union(shape.bounds());
    }
    return all;
  }

  static Box box(Viewport viewport) {
    return Box.of(viewport.x(), viewport.y(), viewport.w(), viewport.h());
  }
}
