package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The binding records that tie an arrow's ends to shapes (tldraw 5: one {@code binding} record per
 * bound end, anchored at the target's center, {@code snap} required), so the arrow follows them.
 */
final class ArrowBindings {
  private ArrowBindings() {}

  static List<JsonObject> of(String arrowId, JsonObject params, Board board) {
    List<JsonObject> bindings = new ArrayList<>();
    bind(arrowId, "start", params.getString("fromId"), board).ifPresent(bindings::add);
    bind(arrowId, "end", params.getString("toId"), board).ifPresent(bindings::add);
    return bindings;
  }

  private static java.util.Optional<JsonObject> bind(
      String arrowId, String terminal, String target, Board board) {
    if (target == null) {
      return java.util.Optional.empty();
    }
    String targetId = ShapeIds.recordId(target);
    if (targetId == null || board.shape(targetId).isEmpty()) {
      throw new ActionRejected("unknown shape '" + target + "'");
    }
    return java.util.Optional.of(binding(arrowId, terminal, targetId));
  }

  /** The binding of one end ({@code start} or {@code end}) of an arrow to a shape, which the caller has checked. */
  static JsonObject binding(String arrowId, String terminal, String targetId) {
    return new JsonObject()
        .put("id", "binding:" + ShapeIds.nanoid())
        .put("typeName", "binding")
        .put("type", "arrow")
        .put("fromId", arrowId)
        .put("toId", targetId)
        .put(
            "props",
            new JsonObject()
                .put("terminal", terminal)
                .put("normalizedAnchor", new JsonObject().put("x", 0.5).put("y", 0.5))
                .put("isExact", false)
                .put("isPrecise", false)
                .put("snap", "none"))
        .put("meta", new JsonObject());
  }
}
