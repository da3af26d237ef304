package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * {@code align}: shapes lined up on an edge or centre of their combined bounds, using each shape's
 * real page bounds (a rotated shape aligns by what is seen, not by its x, y). As in tldraw,
 * {@code center-horizontal} lines up the horizontal centres (a vertical line through them) and
 * {@code center-vertical} the vertical ones.
 */
public final class AlignVerb implements ActionVerb {
  @Override
  public String name() {
    return "align";
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
    List<String> outermost = edit.outermost(ids);
    if (outermost.size() < 2) {
      throw new ActionRejected("align needs at least 2 shapes that are not inside one another");
    }
    String alignment = String.valueOf(params.getValue("alignment"));
    Box common = edit.bounds(outermost);
    for (String id : outermost) {
      Box bounds = edit.bounds(id);
      Vec delta =
          switch (alignment) {
            case "left" -> new Vec(common.minX() - bounds.minX(), 0);
            case "right" -> new Vec(common.maxX() - bounds.maxX(), 0);
            case "center-horizontal" -> new Vec(common.centerX() - bounds.centerX(), 0);
            case "top" -> new Vec(0, common.minY() - bounds.minY());
            case "bottom" -> new Vec(0, common.maxY() - bounds.maxY());
            case "center-vertical" -> new Vec(0, common.centerY() - bounds.centerY());
            default -> throw new ActionRejected("unknown alignment '" + alignment + "'");
          };
      edit.translate(id, delta);
    }
    return new SanitizedAction(LayoutEdit.withRecordIds(params, "shapeIds", ids), edit.diff());
  }
}
