package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * {@code stack}: shapes put one after another along an axis, in the order given, with a fixed gap
 * between their real bounds. The first shape stays; the others keep their position across the axis.
 */
public final class StackVerb implements ActionVerb {
  @Override
  public String name() {
    return "stack";
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
    boolean horizontal = Axis.horizontal(params.getValue("direction"));
    List<String> outermost = edit.outermost(ids);
    if (outermost.size() < 2) {
      throw new ActionRejected("stack needs at least 2 shapes that are not inside one another");
    }
    Double requestedGap = VerbRanges.optionalNumber(params, "gap");
    double gap =
        VerbRanges.clamp(
            context.frame().toPageLength(null, "gap", requestedGap == null ? 0 : requestedGap),
            0,
            VerbRanges.MAX_GAP);

    double cursor = Axis.end(edit.bounds(outermost.get(0)), horizontal) + gap;
    for (String id : outermost.subList(1, outermost.size())) {
      Box bounds = edit.bounds(id);
      edit.translate(id, Axis.along(cursor - Axis.start(bounds, horizontal), horizontal));
      cursor += Axis.length(bounds, horizontal) + gap;
    }
    JsonObject normalized = LayoutEdit.withRecordIds(params, "shapeIds", ids).put("gap", gap);
    return new SanitizedAction(normalized, edit.diff());
  }
}
