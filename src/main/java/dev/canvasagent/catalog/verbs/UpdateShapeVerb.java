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
    if (record.equals(ShapeRefs.shape(context.board(), id))) {
      throw new ActionRejected(
          "the update changes nothing on shape '" + params.getString("shapeId") + "'");
    }
    return new SanitizedAction(params.copy().put("shapeId", id), RecordDiff.putting(record));
  }
}
