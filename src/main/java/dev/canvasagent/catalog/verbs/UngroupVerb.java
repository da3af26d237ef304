package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.geometry.ShapeTree;
import dev.canvasagent.board.geometry.Transform;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code ungroup}: groups dissolved. Each group's children move to the group's parent where the group
 * was in the stacking order, keeping their place on the page (the group's position and rotation are
 * folded into theirs), and the group record is removed, with the bindings of arrows bound to it.
 */
public final class UngroupVerb implements ActionVerb {
  @Override
  public String name() {
    return "ungroup";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public Set<String> referencedShapes(JsonObject params) {
    return LayoutEdit.referencedShapes(params, "shapeIds");
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    LayoutEdit edit = new LayoutEdit(context);
    List<String> ids = edit.shapes(params, 1);
    for (String id : ids) {
      if (!"group".equals(edit.tree().shape(id).orElseThrow().getValue("type"))) {
        throw new ActionRejected("'" + ShapeIds.modelId(id) + "' is not a group");
      }
    }
    if (edit.outermost(ids).size() < ids.size()) {
      throw new ActionRejected("one of the groups is inside another; ungroup the outer one first");
    }
    try {
      ids.forEach(id -> ungroup(edit, id));
    } catch (IllegalArgumentException noRoom) {
      throw new ActionRejected("no index left to put the group's shapes where the group was");
    }
    // An arrow bound to a group lets go of it when the group goes, as when it is deleted.
    Set<String> bindings = new TreeSet<>();
    ids.forEach(id -> bindings.addAll(context.board().bindingIds(id)));
    bindings.forEach(edit::remove);
    return new SanitizedAction(LayoutEdit.withRecordIds(params, "shapeIds", ids), edit.diff());
  }

  private static void ungroup(LayoutEdit edit, String groupId) {
    JsonObject group = edit.tree().shape(groupId).orElseThrow();
    String parent = ShapeTree.parentId(group);
    Transform groupTransform = Transform.of(group);
    String below = ShapeTree.index(group);
    String above =
        edit.tree().children(parent).stream()
            .map(ShapeTree::index)
            .filter(index -> index.compareTo(below) > 0)
            .findFirst()
            .orElse(null);
    if (!FractionalIndex.isValid(below) || above != null && !FractionalIndex.isValid(above)) {
      throw new ActionRejected(
          "group '" + ShapeIds.modelId(groupId) + "' or the shape above it has no valid index");
    }
    String index = below;
    for (JsonObject child : edit.tree().children(groupId)) {
      index = FractionalIndex.between(index, above);
      Transform onParent = groupTransform.then(Transform.of(child));
      edit.record(child.getString("id"))
          .put("parentId", parent)
          .put("x", VerbRanges.coordinate(onParent.x()))
          .put("y", VerbRanges.coordinate(onParent.y()))
          .put("rotation", LayoutEdit.normalizedRotation(onParent.rotation()))
          .put("index", index);
    }
    edit.remove(groupId);
  }
}
