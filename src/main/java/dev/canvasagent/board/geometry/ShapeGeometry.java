package dev.canvasagent.board.geometry;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the board's shapes really are: each shape's page transform (its parents' x, y and rotation
 * composed from the page down) and its axis-aligned bounds in page space or in any other space, the
 * bounds of its rotated outline (a group: of its descendants' outlines). Answers are empty for a shape
 * that is not on the board, is nested deeper than {@link ShapeTree#MAX_DEPTH}, or has nothing to measure.
 */
public final class ShapeGeometry {
  private final ShapeTree tree;

  public ShapeGeometry(Board board) {
    this.tree = new ShapeTree(board);
  }

  public ShapeTree tree() {
    return tree;
  }

  public Optional<Transform> pageTransform(String id) {
    return parentTransform(id)
        .map(parent -> parent.then(Transform.of(tree.shape(id).orElseThrow())));
  }

  /** The page transform of the shape's parent: identity for a shape directly on a page. */
  public Optional<Transform> parentTransform(String id) {
    Optional<List<String>> ancestors = tree.ancestors(id);
    if (ancestors.isEmpty()) {
      return Optional.empty();
    }
    Transform transform = Transform.IDENTITY;
    List<String> chain = ancestors.get();
    for (int i = chain.size() - 1; i >= 0; i--) {
      transform = transform.then(Transform.of(tree.shape(chain.get(i)).orElseThrow()));
    }
    return Optional.of(transform);
  }

  public Optional<Box> pageBounds(String id) {
    return boundsIn(id, Transform.IDENTITY);
  }

  /** The union of the shapes' page bounds; empty if any of them cannot be measured. */
  public Optional<Box> pageBounds(Collection<String> ids) {
    Box union = null;
    for (String id : ids) {
      Optional<Box> bounds = pageBounds(id);
      if (bounds.isEmpty()) {
        return Optional.empty();
      }
      union = union == null ? bounds.get() : union.union(bounds.get());
    }
    return Optional.ofNullable(union);
  }

  /** The shape's bounds along the axes of {@code space} (a page transform), in that space's coordinates. */
  public Optional<Box> boundsIn(String id, Transform space) {
    Optional<Transform> page = pageTransform(id);
    if (page.isEmpty()) {
      return Optional.empty();
    }
    Transform relative = page.get().relativeTo(space);
    Box.Extent extent = new Box.Extent();
    JsonObject shape = tree.shape(id).orElseThrow();
    ShapeOutline.of(shape).forEach(point -> extent.add(relative.apply(point)));
    if ("group".equals(shape.getValue("type")) && !addDescendants(id, relative, extent)) {
      return Optional.empty();
    }
    return extent.box();
  }

  /** Adds the outlines of everything under {@code id}; false if it is nested too deep to measure. */
  private boolean addDescendants(String id, Transform relative, Box.Extent extent) {
    Optional<List<ShapeTree.Nested>> descendants = tree.descendants(id);
    if (descendants.isEmpty()) {
      return false;
    }
    // Parents come before their children, so a group's transform is known when its children are
    // reached. Only groups are entered: a frame clips its children, so its bounds are its own box,
    // as in tldraw.
    Map<String, Transform> groups = new HashMap<>();
    groups.put(id, relative);
    for (ShapeTree.Nested nested : descendants.get()) {
      JsonObject shape = nested.shape();
      Transform parent = groups.get(ShapeTree.parentId(shape));
      if (parent == null) {
        continue;
      }
      Transform transform = parent.then(Transform.of(shape));
      if ("group".equals(shape.getValue("type"))) {
        groups.put(shape.getString("id"), transform);
      }
      ShapeOutline.of(shape).forEach(point -> extent.add(transform.apply(point)));
    }
    return true;
  }
}
