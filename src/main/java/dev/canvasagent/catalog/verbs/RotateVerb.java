package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Transform;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * {@code rotate}: shapes turned together by some degrees (clockwise on screen) about a page point, by
 * default the centre of their combined bounds. Models think in degrees; records keep radians in
 * [0, 2π).
 */
public final class RotateVerb implements ActionVerb {
  @Override
  public String name() {
    return "rotate";
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
    List<String> outermost = edit.outermost(ids);
    // Reduced before converting so that a huge angle still gives a finite, meaningful one.
    double degrees = VerbRanges.finiteNumber(params, "degrees") % 360;
    double radians = Math.toRadians(degrees);
    Box bounds = edit.bounds(outermost);
    Double originX = VerbRanges.optionalNumber(params, "originX");
    Double originY = VerbRanges.optionalNumber(params, "originY");
    Vec origin =
        new Vec(
            originX == null
                ? bounds.centerX()
                : VerbRanges.coordinate(context.frame().toPage(null, "x", originX)),
            originY == null
                ? bounds.centerY()
                : VerbRanges.coordinate(context.frame().toPage(null, "y", originY)));

    for (String id : outermost) {
      Transform page = edit.pageTransform(id);
      edit.moveOriginTo(id, page.origin().rotatedAbout(origin, radians));
      JsonObject record = edit.record(id);
      record.put(
          "rotation", LayoutEdit.normalizedRotation(Transform.of(record).rotation() + radians));
    }
    JsonObject normalized =
        LayoutEdit.withRecordIds(params, "shapeIds", ids).put("degrees", degrees);
    return new SanitizedAction(normalized, edit.diff());
  }
}
