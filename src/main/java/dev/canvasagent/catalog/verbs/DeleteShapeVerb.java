package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code delete_shape}: removes shapes with everything inside them (a frame's or group's children)
 * and every arrow binding that points at or from a removed shape, so no record is left dangling.
 */
public final class DeleteShapeVerb implements ActionVerb {
  @Override
  public String name() {
    return "delete_shape";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public Set<String> referencedShapes(JsonObject params) {
    return ShapeRefs.named(params, "shapeId", "shapeIds");
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    for (String key : List.of("shapeId", "shapeIds")) {
      if (params.containsKey(key)) {
        ShapeRefs.requireUsable(params, key);
      }
    }
    Set<String> ids = referencedShapes(params);
    ids.forEach(id -> ShapeRefs.shape(context.board(), id));
    List<String> removed = withDependents(context.board(), ids);
    return new SanitizedAction(
        new JsonObject().put("shapeIds", new JsonArray(List.copyOf(ids))),
        new RecordDiff(List.of(), removed));
  }

  /**
   * The shapes, their descendants, and the bindings touching any of them: read from the board's
   * children by parent and bindings by record, so it costs what it removes. Each parent's children
   * are taken by id, and the bindings come last by id, the order a scan of the board would give.
   */
  static List<String> withDependents(Board board, Set<String> shapeIds) {
    Set<String> shapes = new LinkedHashSet<>(shapeIds);
    List<String> frontier = new ArrayList<>(shapeIds);
    while (!frontier.isEmpty()) {
      String parent = frontier.remove(frontier.size() - 1);
      for (String child : new TreeSet<>(board.childIds(parent))) {
        if (shapes.add(child)) {
          frontier.add(child);
        }
      }
    }
    List<String> removed = new ArrayList<>(shapes);
    Set<String> bindings = new TreeSet<>();
    shapes.forEach(shape -> bindings.addAll(board.bindingIds(shape)));
    removed.addAll(bindings);
    return removed;
  }
}
