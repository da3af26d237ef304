package dev.canvasagent.catalog;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * A verb only the tests know ({@code test-catalog/nudge.json}): one shape moved by {@code dx, dy}. It
 * has a schema and this class, and nothing else written for it, as a new verb would; the tests that
 * enumerate verbs must take it up from a catalog that holds it. The {@link #broken} one throws on a
 * frame, as a verb with a bug would.
 */
public final class NudgeVerb implements ActionVerb {
  private final boolean failsOnFrames;

  private NudgeVerb(boolean failsOnFrames) {
    this.failsOnFrames = failsOnFrames;
  }

  /** The verb and its schema, as a catalog holds them. */
  public static ActionCatalog.Entry entry() {
    return new ActionCatalog.Entry(new NudgeVerb(false), schema());
  }

  /** The same verb with a bug: a frame makes it throw something other than {@link ActionRejected}. */
  public static ActionCatalog.Entry broken() {
    return new ActionCatalog.Entry(new NudgeVerb(true), schema());
  }

  static JsonSchemaFile schema() {
    return JsonSchemaFile.load("test-catalog/nudge.json");
  }

  @Override
  public String name() {
    return "nudge";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public Set<String> referencedShapes(JsonObject params) {
    String id = ShapeIds.recordId(params.getString("shapeId"));
    return id == null ? Set.of() : Set.of(id);
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    String id = ShapeIds.recordId(params.getString("shapeId"));
    JsonObject shape =
        context
            .board()
            .record(id)
            .filter(record -> "shape".equals(record.getString("typeName")))
            .orElseThrow(
                () -> new ActionRejected("unknown shape '" + params.getString("shapeId") + "'"))
            .copy();
    if (failsOnFrames && "frame".equals(shape.getString("type"))) {
      throw new IllegalStateException("a frame was nudged");
    }
    int times = params.getInteger("times", 1);
    double dx = params.getDouble("dx") * times;
    double dy = params.getDouble("dy") * times;
    if ("snap".equals(params.getString("mode"))) {
      dx = Math.round(dx / 10) * 10.0;
      dy = Math.round(dy / 10) * 10.0;
    }
    shape.put("x", shape.getDouble("x") + dx).put("y", shape.getDouble("y") + dy);
    return new SanitizedAction(
        params.copy().put("shapeId", id).put("dx", dx).put("dy", dy), RecordDiff.putting(shape));
  }
}
