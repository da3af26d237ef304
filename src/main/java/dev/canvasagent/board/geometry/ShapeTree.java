package dev.canvasagent.board.geometry;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
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

  private final Board board;

  /** Reads the board's own indexes: making one costs nothing, whatever the board's size. */
  public ShapeTree(Board board) {
    this.board = board;
  }

  public Optional<JsonObject> shape(String id) {
    return board
        .record(id)
        .filter(
            record ->
                "shape".equals(record.getValue("typeName")) && id.equals(record.getValue("id")));
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
    return board.childIds(parentId).stream().map(id -> board.records().get(id)).toList();
  }

  /**
   * The shape ancestors of a shape, its parent first, up to (not including) its page. Empty when the
   * shape is unknown, the chain is longer than {@link #MAX_DEPTH}, loops, or ends at a parent that is
   * neither a page nor a shape on this board.
   */
  public Optional<List<String>> ancestors(String id) {
    JsonObject shape = shape(id).orElse(null);
    if (shape == null) {
      return Optional.empty();
    }
    List<String> ancestors = new ArrayList<>();
    Set<String> seen = new HashSet<>(Set.of(id));
    String parent = parentId(shape);
    while (!isPage(parent)) {
      JsonObject parentShape = shape(parent).orElse(null);
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
    children(id).forEach(child -> pending.add(new Nested(child, 1)));
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
      children(childId).forEach(child -> pending.add(new Nested(child, next.depth() + 1)));
    }
    return Optional.of(found);
  }

  /** A shape found under another, {@code depth} levels down. */
  public record Nested(JsonObject shape, int depth) {}
}
