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
import java.util.List;
import java.util.Set;

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

  /** The shapes, their descendants, and the bindings touching any of them. */
  static List<String> withDependents(Board board, Set<String> shapeIds) {
    Set<String> shapes = new java.util.LinkedHashSet<>(shapeIds);
    List<String> frontier = new ArrayList<>(shapeIds);
    while (!frontier.isEmpty()) {
      String parent = frontier.remove(frontier.size() - 1);
      for (JsonObject record : board.records().values()) {
        if (parent.equals(record.getString("parentId")) && shapes.add(record.getString("id"))) {
          frontier.add(record.getString("id"));
        }
      }
    }
    List<String> removed = new ArrayList<>(shapes);
    for (JsonObject record : board.records().values()) {
      if ("binding".equals(record.getString("typeName"))
          && (shapes.contains(record.getString("fromId"))
              || shapes.contains(record.getString("toId")))) {
        removed.add(record.getString("id"));
      }
    }
    return removed;
  }
}
