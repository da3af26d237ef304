package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.board.geometry.Transform;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * {@code update_shape}: changes an existing shape's position, rotation, text, size or styles. The
 * whole updated record is put; a prop the shape's type does not have is left out, never added.
 */
public final class UpdateShapeVerb implements ActionVerb {
  @Override
  public String name() {
    return "update_shape";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public Set<String> referencedShapes(JsonObject params) {
    return ShapeRefs.named(params, "shapeId");
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    String id = ShapeRefs.single(params, "shapeId");
    JsonObject record = ShapeRefs.shape(context.board(), id).copy();
    JsonObject recordProps = record.getJsonObject("props");
    JsonObject requested = params.getJsonObject("props", new JsonObject());
    if (params.containsKey("x") || params.containsKey("y")) {
      // The model speaks page coordinates; a child of a frame or group stores them in its parent's
      // space.
      ShapeGeometry geometry = new ShapeGeometry(context.board());
      Transform page = geometry.pageTransform(id).orElse(Transform.IDENTITY);
      Vec target =
          new Vec(
              params.containsKey("x")
                  ? context.frame().toPage(id, "x", params.getDouble("x"))
                  : page.x(),
              params.containsKey("y")
                  ? context.frame().toPage(id, "y", params.getDouble("y"))
                  : page.y());
      Vec local = geometry.parentTransform(id).orElse(Transform.IDENTITY).applyInverse(target);
      record.put("x", VerbRanges.coordinate(local.x()));
      record.put("y", VerbRanges.coordinate(local.y()));
    }
    if (params.containsKey("rotation")) {
      record.put("rotation", Math.toRadians(params.getDouble("rotation") % 360));
    }
    for (String length : new String[] {"w", "h"}) {
      if (requested.containsKey(length) && recordProps.containsKey(length)) {
        recordProps.put(
            length,
            VerbRanges.size(context.frame().toPageLength(id, length, requested.getDouble(length))));
      }
    }
    String text = params.getString("text", requested.getString("text"));
    if (text != null) {
      Labels.apply(record, text);
    }
    if (requested.getString("name") != null && recordProps.containsKey("name")) {
      recordProps.put("name", requested.getString("name"));
    }
    Styles.apply(requested, recordProps, context.brandPalette());
    if (record.equals(ShapeRefs.shape(context.board(), id))
        && !asksForSomething(params, requested, recordProps, text, context)) {
      throw new ActionRejected(
          "the update asks for nothing shape '" + params.getString("shapeId") + "' can take");
    }
    // An update to what the shape already is makes a diff that changes nothing: the patch engine
    // commits nothing for it, and the action counts as applied, unchanged.
    return new SanitizedAction(params.copy().put("shapeId", id), RecordDiff.putting(record));
  }

  /**
   * Whether the update names anything the shape takes — a position, a rotation, a size or name it has,
   * a label, a style it has that tldraw accepts — as opposed to nothing at all, or only what the
   * shape lacks or tldraw refuses (a model's mistake, dropped with the reason).
   */
  private static boolean asksForSomething(
      JsonObject params,
      JsonObject requested,
      JsonObject recordProps,
      String text,
      ActionContext context) {
    return params.containsKey("x")
        || params.containsKey("y")
        || params.containsKey("rotation")
        || text != null
        || (requested.containsKey("w") && recordProps.containsKey("w"))
        || (requested.containsKey("h") && recordProps.containsKey("h"))
        || (requested.getString("name") != null && recordProps.containsKey("name"))
        || Styles.takesAny(requested, recordProps, context.brandPalette());
  }
}
