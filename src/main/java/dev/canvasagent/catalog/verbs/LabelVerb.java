package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code label} (starter kit): sets the text of a shape that has a label. */
public final class LabelVerb implements ActionVerb {
  @Override
  public String name() {
    return "label";
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
    Labels.apply(record, params.getString("text"));
    return new SanitizedAction(params.copy().put("shapeId", id), RecordDiff.putting(record));
  }
}
