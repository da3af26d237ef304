package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.Set;

/** Reading the shapes an action names: bare or record ids, one ({@code shapeId}) or many ({@code shapeIds}). */
final class ShapeRefs {
  private ShapeRefs() {}

  /** The record ids named by {@code shapeId} and {@code shapeIds}, in order, without repeats; unusable ids are left out. */
  static Set<String> named(JsonObject params, String... keys) {
    Set<String> ids = new LinkedHashSet<>();
    for (String key : keys) {
      Object value = params.getValue(key);
      if (value instanceof String single) {
        addIfUsable(ids, single);
      } else if (value instanceof JsonArray many) {
        many.forEach(
            item -> {
              if (item instanceof String reference) {
                addIfUsable(ids, reference);
              }
            });
      }
    }
    return ids;
  }

  private static void addIfUsable(Set<String> ids, String reference) {
    String id = ShapeIds.recordId(reference);
    if (id != null) {
      ids.add(id);
    }
  }

  /** The shape record, or a rejection naming it. */
  static JsonObject shape(Board board, String recordId) {
    return board
        .shape(recordId)
        .orElseThrow(
            () -> new ActionRejected("unknown shape '" + ShapeIds.modelId(recordId) + "'"));
  }

  /** The record id of the one shape {@code key} names, or a rejection when it cannot be a shape id. */
  static String single(JsonObject params, String key) {
    requireUsable(params, key);
    return named(params, key).iterator().next();
  }

  /** Every named reference must be usable as a shape id. */
  static void requireUsable(JsonObject params, String key) {
    Object value = params.getValue(key);
    JsonArray all = value instanceof JsonArray many ? many : new JsonArray().add(value);
    for (Object reference : all) {
      if (!(reference instanceof String text) || ShapeIds.recordId(text) == null) {
        throw new ActionRejected("'" + reference + "' cannot be a shape id");
      }
    }
  }
}
