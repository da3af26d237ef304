package dev.canvasagent.catalog.dialect;

import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Small edits the dialect tables make to params; each returns a new object and leaves its input alone. */
final class Params {
  private Params() {}

  /** The params without {@code keys}: fields of another dialect that ours have no place for. */
  static JsonObject without(JsonObject params, String... keys) {
    JsonObject copy = params.copy();
    for (String key : keys) {
      copy.remove(key);
    }
    return copy;
  }

  /** {@code from} renamed {@code to}, unless {@code to} is given already (then {@code from} is left out). */
  static JsonObject renamed(JsonObject params, String from, String to) {
    return moved(params, from, to, UnaryOperator.identity());
  }

  /** One id ({@code from}) turned into a list of one ({@code to}), unless the list is given already. */
  static JsonObject listed(JsonObject params, String from, String to) {
    return moved(params, from, to, value -> new JsonArray().add(value));
  }

  private static JsonObject moved(
      JsonObject params, String from, String to, UnaryOperator<Object> as) {
    if (!params.containsKey(from)) {
      return params;
    }
    JsonObject copy = params.copy();
    Object value = copy.remove(from);
    if (!copy.containsKey(to)) {
      copy.put(to, as.apply(value));
    }
    return copy;
  }

  /** Refuses the params when they have a field outside {@code known}, naming it and what it was given to. */
  static void onlyKnown(JsonObject params, Set<String> known, String what) {
    for (String field : params.fieldNames()) {
      if (!known.contains(field)) {
        throw new ActionRejected("'" + field + "' is not a field of " + what);
      }
    }
  }

  /** The object under {@code key}, or a refusal naming what is missing. */
  static JsonObject object(JsonObject params, String key, String what) {
    if (!(params.getValue(key) instanceof JsonObject value)) {
      throw new ActionRejected(what + " needs '" + key + "', an object");
    }
    return value;
  }
}
