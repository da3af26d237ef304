package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.CoordinateFrame;
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
 * {@code move}: shapes moved together, either so that their combined bounds' top-left lands on
 * {@code x, y} or by {@code dx, dy}. A shape inside a rotated frame or group moves the same way on the
 * page; its record gets the displacement in its parent's space.
 */
public final class MoveVerb implements ActionVerb {
  /** Twice the coordinate range: no displacement larger than that can keep a shape on the board. */
  private static final double MAX_DISPLACEMENT = 2 * VerbRanges.COORDINATE;

  @Override
  public String name() {
    return "move";
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
    Vec delta = delta(params, context.frame(), ids, edit.bounds(outermost));
    outermost.forEach(id -> edit.translate(id, delta));
    return new SanitizedAction(LayoutEdit.withRecordIds(params, "shapeIds", ids), edit.diff());
  }

  private static Vec delta(JsonObject params, CoordinateFrame frame, List<String> ids, Box bounds) {
    Double x = VerbRanges.optionalNumber(params, "x");
    Double y = VerbRanges.optionalNumber(params, "y");
    Double dx = VerbRanges.optionalNumber(params, "dx");
    Double dy = VerbRanges.optionalNumber(params, "dy");
    if (x != null && y != null && dx == null && dy == null) {
      // One shape: the model is likely giving back a position it was shown, so restore its
      // rounding.
      String roundedFor = ids.size() == 1 ? ids.get(0) : null;
      double pageX = VerbRanges.coordinate(frame.toPage(roundedFor, "x", x));
      double pageY = VerbRanges.coordinate(frame.toPage(roundedFor, "y", y));
      return new Vec(pageX - bounds.minX(), pageY - bounds.minY());
    }
    if (dx != null && dy != null && x == null && y == null) {
      return new Vec(
          VerbRanges.clamp(frame.toPageLength(null, "x", dx), -MAX_DISPLACEMENT, MAX_DISPLACEMENT),
          VerbRanges.clamp(frame.toPageLength(null, "y", dy), -MAX_DISPLACEMENT, MAX_DISPLACEMENT));
    }
    throw new ActionRejected(
        "give either x and y (where the shapes' top-left goes) or dx and dy (how far to move them)");
  }
}
