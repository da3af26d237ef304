package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.geometry.Box;
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
 * {@code distribute}: shapes spaced with equal gaps along one axis. The first and last (by position on
 * that axis) stay where they are; the ones between are moved so every gap is the same. Shapes that
 * together are wider than the span end up overlapping equally.
 */
public final class DistributeVerb implements ActionVerb {
  @Override
  public String name() {
    return "distribute";
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
    List<String> ids = edit.shapes(params, 3);
    boolean horizontal = Axis.horizontal(params.getValue("direction"));
    List<String> outermost = edit.outermost(ids);
    if (outermost.size() < 3) {
      throw new ActionRejected(
          "distribute needs at least 3 shapes that are not inside one another");
    }
    List<String> sorted =
        outermost.stream()
            .sorted(
                Comparator.comparingDouble((String id) -> Axis.start(edit.bounds(id), horizontal))
                    .thenComparing(id -> id))
            .toList();
    Box first = edit.bounds(sorted.get(0));
    Box last = edit.bounds(sorted.get(sorted.size() - 1));
    double span = Axis.end(last, horizontal) - Axis.start(first, horizontal);
    double occupied =
        sorted.stream().mapToDouble(id -> Axis.length(edit.bounds(id), horizontal)).sum();
    double gap = (span - occupied) / (sorted.size() - 1);

    double cursor = Axis.end(first, horizontal) + gap;
    for (String id : sorted.subList(1, sorted.size() - 1)) {
      Box bounds = edit.bounds(id);
      edit.translate(id, Axis.along(cursor - Axis.start(bounds, horizontal), horizontal));
      cursor += Axis.length(bounds, horizontal) + gap;
    }
    return new SanitizedAction(LayoutEdit.withRecordIds(params, "shapeIds", ids), edit.diff());
  }
}
