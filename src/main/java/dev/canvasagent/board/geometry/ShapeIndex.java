package dev.canvasagent.board.geometry;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.TreePSet;

/**
 * The shapes of one board revision that tldraw paints (those that reach a page through their
 * parents), each with its page bounds and {@link PaintPath}: in paint order, by id, and by place
 * (a {@link CenterGrid} of the measurable ones). Persistent: {@link #updated} re-measures only the
 * shapes a diff changed and those whose bounds depend on them (their descendants, whose page position
 * follows their parents', and their ancestors, since a group's bounds are its descendants'), and
 * shares the rest. Answers equal those of measuring every shape with {@link ShapeGeometry}.
 */
public final class ShapeIndex {
  /** A painted shape: its record, its page bounds (null when it has nothing to measure) and paint path. */
  public record Placed(String id, JsonObject record, Box bounds, PaintPath path) {}

  private static final Comparator<Placed> PAINT_ORDER =
      Comparator.comparing(Placed::path, PaintPath.ORDER);

  private final PMap<String, Placed> byId;
  private final TreePSet<Placed> inPaintOrder;
  private final CenterGrid grid;

  private ShapeIndex(PMap<String, Placed> byId, TreePSet<Placed> inPaintOrder, CenterGrid grid) {
    this.byId = byId;
    this.inPaintOrder = inPaintOrder;
    this.grid = grid;
  }

  /** Measures every shape of the board: O(n · depth). */
  public static ShapeIndex of(Board board) {
    ShapeIndex empty =
        new ShapeIndex(HashTreePMap.empty(), TreePSet.empty(PAINT_ORDER), CenterGrid.EMPTY);
    List<String> shapes = new ArrayList<>();
    board
        .records()
        .forEach(
            (id, record) -> {
              if ("shape".equals(record.getValue("typeName"))) {
                shapes.add(id);
              }
            });
    return empty.remeasured(new ShapeGeometry(board), shapes);
  }

  /**
   * This index for {@code after}, the board {@code before} (this index's board) became by changing
   * the records {@code touched}.
   */
  public ShapeIndex updated(Board before, Board after, Collection<String> touched) {
    Set<String> affected = new LinkedHashSet<>();
    for (Board board : List.of(before, after)) {
      for (String id : touched) {
        if (board.shape(id).isPresent()) {
          affected.add(id);
          affected.addAll(ancestors(board, id));
          affected.addAll(descendants(board, id));
        }
      }
    }
    return remeasured(new ShapeGeometry(after), affected);
  }

  private ShapeIndex remeasured(ShapeGeometry geometry, Collection<String> ids) {
    PMap<String, Placed> nextById = byId;
    TreePSet<Placed> nextOrder = inPaintOrder;
    CenterGrid.Edit edit = grid.edit();
    for (String id : ids) {
      Placed old = nextById.get(id);
      if (old != null) {
        nextById = nextById.minus(id);
        nextOrder = nextOrder.minus(old);
        if (old.bounds() != null) {
          edit.minus(id, old.bounds());
        }
      }
      Optional<Placed> placed = place(geometry, id);
      if (placed.isPresent()) {
        nextById = nextById.plus(id, placed.get());
        nextOrder = nextOrder.plus(placed.get());
        if (placed.get().bounds() != null) {
          edit.plus(id, placed.get().bounds());
        }
      }
    }
    return new ShapeIndex(nextById, nextOrder, edit.done());
  }

  /** The shape as painted, or empty when it is no shape, or does not reach a page. */
  private static Optional<Placed> place(ShapeGeometry geometry, String id) {
    ShapeTree tree = geometry.tree();
    Optional<JsonObject> shape = tree.shape(id);
    Optional<List<String>> ancestors = shape.isEmpty() ? Optional.empty() : tree.ancestors(id);
    if (ancestors.isEmpty()) {
      return Optional.empty();
    }
    List<JsonObject> chain = new ArrayList<>();
    for (String ancestor : ancestors.get()) {
      chain.add(tree.shape(ancestor).orElseThrow());
    }
    Collections.reverse(chain);
    String page = ShapeTree.parentId(chain.isEmpty() ? shape.get() : chain.get(0));
    chain.add(shape.get());
    return Optional.of(
        new Placed(
            id, shape.get(), geometry.pageBounds(id).orElse(null), PaintPath.of(page, chain)));
  }

  /** The parents of the shape, up the chain as far as it goes (bounded, cycles stopped). */
  private static List<String> ancestors(Board board, String id) {
    List<String> found = new ArrayList<>();
    Set<String> seen = new HashSet<>(Set.of(id));
    String current = id;
    for (int depth = 0; depth <= ShapeTree.MAX_DEPTH; depth++) {
      Object parent = board.record(current).map(record -> record.getValue("parentId")).orElse(null);
      if (!(parent instanceof String parentId) || !seen.add(parentId)) {
        break;
      }
      found.add(parentId);
      current = parentId;
    }
    return found;
  }

  /**
   * Everything under the shape down to the depth a painted shape can have (deeper ones are painted
   * neither before nor after).
   */
  private static List<String> descendants(Board board, String id) {
    List<String> found = new ArrayList<>();
    Set<String> seen = new HashSet<>(Set.of(id));
    Deque<Map.Entry<String, Integer>> pending = new ArrayDeque<>();
    pending.add(Map.entry(id, 0));
    while (!pending.isEmpty()) {
      Map.Entry<String, Integer> next = pending.poll();
      if (next.getValue() > ShapeTree.MAX_DEPTH) {
        continue;
      }
      for (String child : board.childIds(next.getKey())) {
        if (seen.add(child)) {
          found.add(child);
          pending.add(Map.entry(child, next.getValue() + 1));
        }
      }
    }
    return found;
  }

  /** How many shapes are painted. */
  public int size() {
    return byId.size();
  }

  public Optional<Placed> placed(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** Every painted shape, back to front; iterating it reads only as far as it goes. */
  public Collection<Placed> paintOrder() {
    return Collections.unmodifiableCollection(inPaintOrder);
  }

  /** The measurable shapes inside {@code area} (edges included), back to front. */
  public List<Placed> within(Box area) {
    List<Placed> found = new ArrayList<>();
    grid.forEachNear(
        area,
        (id, bounds) -> {
          if (bounds.isWithin(area)) {
            found.add(byId.get(id));
          }
        });
    found.sort(PAINT_ORDER);
    return found;
  }

  /**
   * The measurable shapes not inside {@code view}, grouped by the cell of {@code grid} holding the
   * centre of their bounds, in no particular order.
   */
  public List<GridCluster> clustersOutside(Box view, ClusterGrid grid) {
    return this.grid.clustersOutside(view, grid);
  }
}
