package dev.canvasagent.runner.stream;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which strings of a verb's params are enums, read from the verb's JSON Schema in the catalog: a
 * property whose schema has {@code enum} or {@code const}, or a style key (color, fill, dash, size,
 * font, align, geo, type, ...) whose words the sanitizer maps. Half an enum word ({@code "bl"} on
 * its way to {@code "blue"}) means nothing, or something else, to a client, so these are held back
 * from partial snapshots until complete.
 */
public final class EnumFields {
  static final Set<String> STYLE_KEYS =
      Set.of(
          "color",
          "labelColor",
          "fill",
          "dash",
          "size",
          "font",
          "align",
          "verticalAlign",
          "textAlign",
          "geo",
          "type",
          "arrowheadStart",
          "arrowheadEnd",
          "spline");

  private final ActionCatalog catalog;
  private final Map<String, JsonObject> schemas = new HashMap<>();

  public EnumFields(ActionCatalog catalog) {
    this.catalog = catalog;
  }

  /**
   * Whether the string at {@code path} (keys and array indices from the params' root) is an enum of
   * {@code verb}. An unknown verb has no schema: only its style keys are held back.
   */
  public boolean heldBack(String verb, List<Object> path) {
    if (path.isEmpty()) {
      return false;
    }
    if (path.get(path.size() - 1) instanceof String key && STYLE_KEYS.contains(key)) {
      return true;
    }
    JsonObject root =
        schemas.computeIfAbsent(
            verb,
            name ->
                catalog
                    .entry(name)
                    .map(entry -> entry.schema().document())
                    .orElse(new JsonObject()));
    List<JsonObject> candidates = expand(root, List.of(root));
    for (Object step : path) {
      List<JsonObject> next = new ArrayList<>();
      for (JsonObject schema : candidates) {
        Object child =
            step instanceof String key
                ? propertySchema(schema, key)
                : itemSchema(schema, (Integer) step);
        if (child instanceof JsonObject childSchema) {
          next.add(childSchema);
        }
      }
      candidates = expand(root, next);
      if (candidates.isEmpty()) {
        return false;
      }
    }
    return candidates.stream()
        .anyMatch(schema -> schema.containsKey("enum") || schema.containsKey("const"));
  }

  private static Object propertySchema(JsonObject schema, String key) {
    JsonObject properties = schema.getJsonObject("properties");
    if (properties != null && properties.containsKey(key)) {
      return properties.getValue(key);
    }
    return schema.getValue("additionalProperties");
  }

  private static Object itemSchema(JsonObject schema, int index) {
    Object items = schema.getValue("items");
    if (items instanceof JsonArray tuple) {
      return index < tuple.size() ? tuple.getValue(index) : schema.getValue("additionalItems");
    }
    return items;
  }

  /** Each schema with its {@code $ref} resolved and its anyOf / oneOf / allOf branches beside it. */
  private static List<JsonObject> expand(JsonObject root, List<JsonObject> schemas) {
    List<JsonObject> expanded = new ArrayList<>();
    List<JsonObject> todo = new ArrayList<>(schemas);
    // Bounded: a schema that refers to itself must not loop.
    for (int i = 0; i < todo.size() && i < 64; i++) {
      JsonObject schema = todo.get(i);
      String ref = schema.getString("$ref");
      if (ref != null) {
        JsonObject target = resolve(root, ref);
        if (target != null) {
          todo.add(target);
        }
        continue;
      }
      expanded.add(schema);
      for (String combinator : List.of("anyOf", "oneOf", "allOf")) {
        JsonArray branches = schema.getJsonArray(combinator);
        if (branches != null) {
          branches.stream()
              .filter(JsonObject.class::isInstance)
              .map(JsonObject.class::cast)
              .forEach(todo::add);
        }
      }
    }
    return expanded;
  }

  /** A local reference, {@code #/definitions/point}; others are not followed. */
  private static JsonObject resolve(JsonObject root, String ref) {
    if (!ref.startsWith("#/")) {
      return null;
    }
    Object node = root;
    for (String part : ref.substring(2).split("/")) {
      if (!(node instanceof JsonObject object)) {
        return null;
      }
      node = object.getValue(part.replace("~1", "/").replace("~0", "~"));
    }
    return node instanceof JsonObject schema ? schema : null;
  }
}
