package dev.canvasagent.board.geometry;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The board's shapes as tldraw nests them: each shape's parent is a page or a frame/group shape, and
 * siblings are ordered by their fractional index. Every walk here is a loop bounded by
 * {@link #MAX_DEPTH}, so a board nested absurdly deep, or one whose parents form a cycle, is answered
 * with "cannot" rather than a stack overflow or a hang.
 */
public final class ShapeTree {
  /** How many shape ancestors a shape may have before the layout verbs refuse to work on it. */
  public static final int MAX_DEPTH = 100;

  private static final Comparator<JsonObject> BY_INDEX =
      Comparator.comparing((JsonObject shape) -> index(shape))
          .thenComparing(shape -> shape.getString("id"));

  private final Map<String, JsonObject> shapes = new HashMap<>();
  private final Map<String, List<JsonObject>> childrenByParent = new HashMap<>();

  public ShapeTree(Board board) {
    board
        .records()
        .forEach(
            (id, record) -> {
              if ("shape".equals(record.getValue("typeName")) && id.equals(record.getValue("id"))) {
                shapes.put(id, record);
                childrenByParent
                    .computeIfAbsent(parentId(record), parent -> new ArrayList<>())
                    .add(record);
              }
            });
    childrenByParent.values().forEach(children -> children.sort(BY_INDEX));
  }

  public Optional<JsonObject> shape(String id) {
    return Optional.ofNullable(shapes.get(id));
  }

  public static String parentId(JsonObject shape) {
    return RecordNumbers.string(shape, "parentId", "");
  }

  public static String index(JsonObject shape) {
    return RecordNumbers.string(shape, "index", "");
  }

  public static boolean isPage(String parentId) {
    return parentId.startsWith("page:");
  }

  /** The shape's direct children, lowest index first. */
  public List<JsonObject> children(String parentId) {
    return List.copyOf(childrenByParent.getOrDefault(parentId, List.of()));
  }

  /**
   * The shape ancestors of a shape, its parent first, up to (not including) its page. Empty when the
   * shape is unknown, the chain is longer than {@link #MAX_DEPTH}, loops, or ends at a parent that is
   * neither a page nor a shape on this board.
   */
  public Optional<List<String>> ancestors(String id) {
    JsonObject shape = shapes.get(id);
    if (shape == null) {
      return Optional.empty();
    }
    List<String> ancestors = new ArrayList<>();
    Set<String> seen = new HashSet<>(Set.of(id));
    String parent = parentId(shape);
    while (!isPage(parent)) {
      JsonObject parentShape = shapes.get(parent);
      if (parentShape == null || !seen.add(parent) || ancestors.size() == MAX_DEPTH) {
        return Optional.empty();
      }
      ancestors.add(parent);
      parent = parentId(parentShape);
    }
    return Optional.of(ancestors);
  }

  public boolean isAncestor(String ancestor, String id) {
    return ancestors(id).map(chain -> chain.contains(ancestor)).orElse(false);
  }

  /**
   * Everything nested under a shape, parents before their children, each with its depth below the
   * shape (1 for a child). Empty when the nesting goes deeper than {@link #MAX_DEPTH}.
   */
  public Optional<List<Nested>> descendants(String id) {
    List<Nested> found = new ArrayList<>();
    Set<String> seen = new HashSet<>(Set.of(id));
    Deque<Nested> pending = new ArrayDeque<>();
    childrenByParent
        .getOrDefault(id, List.of())
        .forEach(child -> pending.add(new Nested(child, 1)));
    while (!pending.isEmpty()) {
      Nested next = pending.poll();
      if (next.depth() > MAX_DEPTH) {
        return Optional.empty();
      }
      String childId = next.shape().getString("id");
      if (!seen.add(childId)) {
        continue;
      }
      found.add(next);
      childrenByParent
          .getOrDefault(childId, List.of())
          .forEach(child -> pending.add(new Nested(child, next.depth() + 1)));
    }
    return Optional.of(found);
  }

  /** A shape found under another, {@code depth} levels down. */
  public record Nested(JsonObject shape, int depth) {}
}
