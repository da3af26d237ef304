package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeTree;
import dev.canvasagent.board.geometry.Transform;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * {@code group}: shapes that share one parent put into a new group there. As tldraw does it, the group
 * sits at the top-left of its members' bounds in the parent's space, unrotated, at the index of its
 * highest member; the members keep their place on the page with x, y now relative to the group.
 */
public final class GroupVerb implements ActionVerb {
  @Override
  public String name() {
    return "group";
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
    List<String> ids = edit.shapes(params, 2);
    String parent = commonParent(edit, ids);
    checkDepth(edit, ids);
    String groupId = groupId(params.getValue("groupId"), context);

    Transform parentSpace = edit.parentTransform(ids.get(0));
    Box bounds = null;
    for (String id : ids) {
      Box member =
          edit.geometry()
              .boundsIn(id, parentSpace)
              .orElseThrow(
                  () ->
                      new ActionRejected(
                          "shape '" + ShapeIds.modelId(id) + "' cannot be measured"));
      bounds = bounds == null ? member : bounds.union(member);
    }
    List<JsonObject> members =
        ids.stream()
            .map(id -> edit.tree().shape(id).orElseThrow())
            .sorted(
                Comparator.comparing(ShapeTree::index)
                    .thenComparing(member -> member.getString("id")))
            .toList();
    String groupIndex = ShapeTree.index(members.get(members.size() - 1));
    if (!FractionalIndex.isValid(groupIndex)) {
      throw new ActionRejected(
          "shape '"
              + ShapeIds.modelId(members.get(members.size() - 1).getString("id"))
              + "' has no valid index");
    }

    edit.create(
        ShapeRecords.shape(
                groupId,
                "group",
                bounds.minX(),
                bounds.minY(),
                groupIndex,
                ShapeRecords.groupProps())
            .put("parentId", parent));
    String index = null;
    for (JsonObject member : members) {
      index = FractionalIndex.after(index);
      JsonObject record = edit.record(member.getString("id"));
      Transform local = Transform.of(record);
      record
          .put("parentId", groupId)
          .put("x", VerbRanges.coordinate(local.x() - bounds.minX()))
          .put("y", VerbRanges.coordinate(local.y() - bounds.minY()))
          .put("index", index);
    }
    JsonObject normalized =
        LayoutEdit.withRecordIds(params, "shapeIds", ids).put("groupId", groupId);
    return new SanitizedAction(normalized, edit.diff());
  }

  private static String commonParent(LayoutEdit edit, List<String> ids) {
    Set<String> selected = Set.copyOf(ids);
    for (String id : ids) {
      edit.tree().ancestors(id).orElseThrow().stream()
          .filter(selected::contains)
          .findFirst()
          .ifPresent(
              ancestor -> {
                throw new ActionRejected(
                    "'"
                        + ShapeIds.modelId(id)
                        + "' is inside '"
                        + ShapeIds.modelId(ancestor)
                        + "'; a group cannot hold a shape together with what contains it");
              });
    }
    String parent = ShapeTree.parentId(edit.tree().shape(ids.get(0)).orElseThrow());
    for (String id : ids) {
      if (!parent.equals(ShapeTree.parentId(edit.tree().shape(id).orElseThrow()))) {
        throw new ActionRejected(
            "'"
                + ShapeIds.modelId(ids.get(0))
                + "' and '"
                + ShapeIds.modelId(id)
                + "' have different parents; only shapes with the same parent can be grouped");
      }
    }
    return parent;
  }

  /** The group adds a level above the members; whatever is deepest inside them must stay within the limit. */
  private static void checkDepth(LayoutEdit edit, List<String> ids) {
    int parentDepth = edit.tree().ancestors(ids.get(0)).orElseThrow().size();
    for (String id : ids) {
      int height =
          edit.tree()
              .descendants(id)
              .map(nested -> nested.stream().mapToInt(ShapeTree.Nested::depth).max().orElse(0))
              .orElse(ShapeTree.MAX_DEPTH + 1);
      if (parentDepth + 1 + height > ShapeTree.MAX_DEPTH) {
        throw new ActionRejected(
            "grouping would nest shapes more than " + ShapeTree.MAX_DEPTH + " levels deep");
      }
    }
  }

  private static String groupId(Object requested, ActionContext context) {
    if (requested == null) {
      return ShapeIds.newAgentId();
    }
    if (!(requested instanceof String bare) || !ShapeIds.MODEL_ID.matcher(bare).matches()) {
      throw new ActionRejected(
          "groupId must be letters, digits, _ or - (at most 64), got '" + requested + "'");
    }
    String id = ShapeIds.PREFIX + bare;
    if (context.board().record(id).isPresent()) {
      throw new ActionRejected("shape '" + bare + "' already exists; choose another groupId");
    }
    return id;
  }
}
