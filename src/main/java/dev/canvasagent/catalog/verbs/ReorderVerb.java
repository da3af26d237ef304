package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.geometry.ShapeTree;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code reorder}: shapes brought to the front, one step forward, one step backward or sent to the
 * back among their siblings (the shapes with the same parent), keeping their order among themselves,
 * as tldraw's own commands do. Only the moved shapes get new fractional indexes; the others keep theirs.
 */
public final class ReorderVerb implements ActionVerb {
  @Override
  public String name() {
    return "reorder";
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
    String to = String.valueOf(params.getValue("to"));
    if (!Set.of("front", "forward", "backward", "back").contains(to)) {
      throw new ActionRejected("to must be front, forward, backward or back, got '" + to + "'");
    }
    Map<String, List<String>> byParent = new LinkedHashMap<>();
    ids.forEach(
        id ->
            byParent
                .computeIfAbsent(
                    ShapeTree.parentId(edit.tree().shape(id).orElseThrow()),
                    parent -> new ArrayList<>())
                .add(id));
    byParent.forEach((parent, selected) -> reorderSiblings(edit, parent, Set.copyOf(selected), to));
    return new SanitizedAction(LayoutEdit.withRecordIds(params, "shapeIds", ids), edit.diff());
  }

  private static void reorderSiblings(
      LayoutEdit edit, String parent, Set<String> selected, String to) {
    List<JsonObject> siblings = edit.tree().children(parent);
    String previous = null;
    for (JsonObject sibling : siblings) {
      String index = ShapeTree.index(sibling);
      if (!FractionalIndex.isValid(index) || previous != null && previous.compareTo(index) >= 0) {
        throw new ActionRejected(
            "the shapes in '" + ShapeIds.modelId(parent) + "' do not have valid, distinct indexes");
      }
      previous = index;
    }
    List<String> order =
        new ArrayList<>(siblings.stream().map(sibling -> sibling.getString("id")).toList());
    switch (to) {
      case "front" -> {
        order.removeIf(selected::contains);
        siblings.stream()
            .map(sibling -> sibling.getString("id"))
            .filter(selected::contains)
            .forEach(order::add);
      }
      case "back" -> {
        order.removeIf(selected::contains);
        order.addAll(
            0,
            siblings.stream()
                .map(sibling -> sibling.getString("id"))
                .filter(selected::contains)
                .toList());
      }
      case "forward" -> {
        // From the top down, so a run of selected shapes moves up past the next shape as one block.
        for (int i = order.size() - 2; i >= 0; i--) {
          if (selected.contains(order.get(i)) && !selected.contains(order.get(i + 1))) {
            Collections.swap(order, i, i + 1);
          }
        }
      }
      default -> {
        for (int i = 1; i < order.size(); i++) {
          if (selected.contains(order.get(i)) && !selected.contains(order.get(i - 1))) {
            Collections.swap(order, i, i - 1);
          }
        }
      }
    }
    try {
      assignIndexes(edit, order, selected);
    } catch (IllegalArgumentException noRoom) {
      throw new ActionRejected(
          "no index left to reorder the shapes in '" + ShapeIds.modelId(parent) + "'");
    }
  }

  /**
   * Walks the new order keeping every unselected shape's index; a selected shape keeps its own when it
   * still falls between its neighbours, and otherwise gets a key between them.
   */
  private static void assignIndexes(LayoutEdit edit, List<String> order, Set<String> selected) {
    String below = null;
    for (int i = 0; i < order.size(); i++) {
      String id = order.get(i);
      String current = ShapeTree.index(edit.tree().shape(id).orElseThrow());
      if (!selected.contains(id)) {
        below = current;
        continue;
      }
      String above = nextUnselectedIndex(edit, order, selected, i);
      boolean fits =
          (below == null || below.compareTo(current) < 0)
              && (above == null || current.compareTo(above) < 0);
      String index = fits ? current : FractionalIndex.between(below, above);
      if (!index.equals(current)) {
        edit.record(id).put("index", index);
      }
      below = index;
    }
  }

  private static String nextUnselectedIndex(
      LayoutEdit edit, List<String> order, Set<String> selected, int from) {
    for (int i = from + 1; i < order.size(); i++) {
      if (!selected.contains(order.get(i))) {
        return ShapeTree.index(edit.tree().shape(order.get(i)).orElseThrow());
      }
    }
    return null;
  }
}
