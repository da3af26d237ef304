package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * {@code place}: one shape put beside another, as the tldraw agent kit's place action does: on a side of
 * the reference, {@code sideOffset} away, and along that side at its start, centre or end (shifted by
 * {@code alignOffset}, towards the middle for {@code end}). Both use their real page bounds.
 */
public final class PlaceVerb implements ActionVerb {
  @Override
  public String name() {
    return "place";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public Set<String> referencedShapes(JsonObject params) {
    return LayoutEdit.referencedShapes(params, "shapeId", "referenceShapeId");
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    LayoutEdit edit = new LayoutEdit(context);
    String id = edit.shape(params.getValue("shapeId"));
    String referenceId = edit.shape(params.getValue("referenceShapeId"));
    if (id.equals(referenceId)
        || edit.tree().isAncestor(id, referenceId)
        || edit.tree().isAncestor(referenceId, id)) {
      throw new ActionRejected(
          "'"
              + ShapeIds.modelId(id)
              + "' cannot be placed beside '"
              + ShapeIds.modelId(referenceId)
              + "': it is the same shape or one contains the other");
    }
    String side = String.valueOf(params.getValue("side"));
    String align =
        params.getValue("align") == null ? "center" : String.valueOf(params.getValue("align"));
    double sideOffset =
        VerbRanges.clamp(
            context
                .frame()
                .toPageLength(
                    null, "sideOffset", orZero(VerbRanges.optionalNumber(params, "sideOffset"))),
            0,
            VerbRanges.MAX_GAP);
    double alignOffset =
        VerbRanges.clamp(
            context
                .frame()
                .toPageLength(
                    null, "alignOffset", orZero(VerbRanges.optionalNumber(params, "alignOffset"))),
            -VerbRanges.MAX_GAP,
            VerbRanges.MAX_GAP);

    Box shape = edit.bounds(id);
    Box reference = edit.bounds(referenceId);
    Vec target =
        switch (side) {
          case "top" ->
              new Vec(
                  alongX(shape, reference, align, alignOffset),
                  reference.minY() - shape.height() - sideOffset);
          case "bottom" ->
              new Vec(alongX(shape, reference, align, alignOffset), reference.maxY() + sideOffset);
          case "left" ->
              new Vec(
                  reference.minX() - shape.width() - sideOffset,
                  alongY(shape, reference, align, alignOffset));
          case "right" ->
              new Vec(reference.maxX() + sideOffset, alongY(shape, reference, align, alignOffset));
          default ->
              throw new ActionRejected(
                  "side must be top, bottom, left or right, got '" + side + "'");
        };
    edit.translate(id, target.minus(shape.topLeft()));
    JsonObject normalized =
        params
            .copy()
            .put("shapeId", id)
            .put("referenceShapeId", referenceId)
            .put("align", align)
            .put("sideOffset", sideOffset)
            .put("alignOffset", alignOffset);
    return new SanitizedAction(normalized, edit.diff());
  }

  private static double alongX(Box shape, Box reference, String align, double offset) {
    return switch (align) {
      case "start" -> reference.minX() + offset;
      case "center" -> reference.centerX() - shape.width() / 2 + offset;
      case "end" -> reference.maxX() - shape.width() - offset;
      default ->
          throw new ActionRejected("align must be start, center or end, got '" + align + "'");
    };
  }

  private static double alongY(Box shape, Box reference, String align, double offset) {
    return switch (align) {
      case "start" -> reference.minY() + offset;
      case "center" -> reference.centerY() - shape.height() / 2 + offset;
      case "end" -> reference.maxY() - shape.height() - offset;
      default ->
          throw new ActionRejected("align must be start, center or end, got '" + align + "'");
    };
  }

  private static double orZero(Double value) {
    return value == null ? 0 : value;
  }
}
