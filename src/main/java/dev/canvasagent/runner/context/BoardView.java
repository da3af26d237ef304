package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeLocks;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.board.geometry.ShapeTree;
import dev.canvasagent.bus.Viewport;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The board's shapes as the context parts read them: in paint order (back to front, as tldraw paints
 * them: each page's children by index, a shape's children right after it), each with its page bounds,
 * and the arrow bindings by arrow. Measured once per build and shared by the parts.
 */
final class BoardView {
  /** A shape, its page bounds (null when it cannot be measured), and its paint position. */
  record Shape(String recordId, JsonObject record, Box bounds, int paintIndex) {
    boolean isFullyInside(Box area) {
      return bounds != null
          && bounds.minX() >= area.minX()
          && bounds.minY() >= area.minY()
          && bounds.maxX() <= area.maxX()
          && bounds.maxY() <= area.maxY();
    }
  }

  private final Board board;
  private final ShapeLocks locks;
  private final List<Shape> paintOrder;
  private final Map<String, Shape> byId = new HashMap<>();
  private final Map<String, Map<String, String>> arrowTargets = new HashMap<>();

  BoardView(Board board) {
    this.board = board;
    this.locks = new ShapeLocks(board);
    ShapeTree tree = new ShapeTree(board);
    ShapeGeometry geometry = new ShapeGeometry(board);
    List<Shape> shapes = new ArrayList<>();
    for (String recordId : paintOrderIds(board, tree)) {
      JsonObject record = tree.shape(recordId).orElseThrow();
      Shape shape =
          new Shape(recordId, record, geometry.pageBounds(recordId).orElse(null), shapes.size());
      shapes.add(shape);
      byId.put(recordId, shape);
    }
    this.paintOrder = List.copyOf(shapes);
    board.records().values().stream()
        .filter(
            record ->
                "binding".equals(record.getValue("typeName"))
                    && "arrow".equals(record.getValue("type")))
        .forEach(
            binding -> {
              String arrow = binding.getValue("fromId") instanceof String id ? id : null;
              String target = binding.getValue("toId") instanceof String id ? id : null;
              String terminal =
                  binding.getValue("props") instanceof JsonObject props
                          && props.getValue("terminal") instanceof String t
                      ? t
                      : null;
              if (arrow != null && target != null && terminal != null) {
                arrowTargets.computeIfAbsent(arrow, id -> new HashMap<>()).put(terminal, target);
              }
            });
  }

  /** Depth first from each page (pages by their id), siblings by index; a loop never reaches here from a page. */
  private static List<String> paintOrderIds(Board board, ShapeTree tree) {
    Set<String> pages = new java.util.TreeSet<>();
    board
        .records()
        .values()
        .forEach(
            record -> {
              if ("shape".equals(record.getValue("typeName"))) {
                String parent = ShapeTree.parentId(record);
                if (ShapeTree.isPage(parent)) {
                  pages.add(parent);
                }
              }
            });
    List<String> order = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String page : pages) {
      Deque<Map.Entry<String, Integer>> pending = new ArrayDeque<>();
      pushChildren(tree, page, 0, pending);
      while (!pending.isEmpty()) {
        Map.Entry<String, Integer> next = pending.pop();
        if (!seen.add(next.getKey()) || next.getValue() > ShapeTree.MAX_DEPTH) {
          continue;
        }
        order.add(next.getKey());
        pushChildren(tree, next.getKey(), next.getValue() + 1, pending);
      }
    }
    return order;
  }

  private static void pushChildren(
      ShapeTree tree, String parent, int depth, Deque<Map.Entry<String, Integer>> pending) {
    List<JsonObject> children = tree.children(parent);
    for (int i = children.size() - 1; i >= 0; i--) {
      pending.push(Map.entry(children.get(i).getString("id"), depth));
    }
  }

  Board board() {
    return board;
  }

  /** Every shape reachable from a page, back to front. */
  List<Shape> paintOrder() {
    return paintOrder;
  }

  Shape shape(String recordId) {
    return byId.get(recordId);
  }

  /** Whether a person's lock holds the shape: it is locked, or inside a locked frame or group. */
  boolean locked(String recordId) {
    return locks.holds(recordId);
  }

  /** The shape an arrow's {@code start} or {@code end} is bound to, or null. */
  String arrowTarget(String arrowId, String terminal) {
    return arrowTargets.getOrDefault(arrowId, Map.of()).get(terminal);
  }

  /** The shapes fully inside the viewport, back to front; every measurable shape when there is no viewport. */
  List<Shape> inView(Viewport viewport) {
    if (viewport == null) {
      return paintOrder.stream().filter(shape -> shape.bounds() != null).toList();
    }
    Box area = box(viewport);
    return paintOrder.stream().filter(shape -> shape.isFullyInside(area)).toList();
  }

  /** The measurable shapes not fully inside the viewport, back to front; none when there is no viewport. */
  List<Shape> outOfView(Viewport viewport) {
    if (viewport == null) {
      return List.of();
    }
    Box area = box(viewport);
    return paintOrder.stream()
        .filter(shape -> shape.bounds() != null && !shape.isFullyInside(area))
        .toList();
  }

  static Box box(Viewport viewport) {
    return Box.of(viewport.x(), viewport.y(), viewport.w(), viewport.h());
  }
}
