package dev.canvasagent.model.gemini;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * A catalog schema (draft-07) rewritten for Gemini's {@code parametersJsonSchema}, which accepts
 * only a subset of JSON Schema: local {@code $ref}s are inlined (so {@code definitions} can go),
 * and every keyword outside the subset Gemini documents is dropped ({@code $schema}, {@code
 * examples}, {@code pattern}, {@code maxLength}, {@code exclusiveMinimum}, …). What is dropped only
 * loosens the declaration: the sanitizer still validates every call against the full schema.
 */
final class GeminiSchema {
  /** The keywords Gemini's JSON Schema support lists (besides $ref and $defs, resolved here). */
  static final Set<String> KEPT =
      Set.of(
          "type",
          "format",
          "title",
          "description",
          "enum",
          "items",
          "prefixItems",
          "minItems",
          "maxItems",
          "minimum",
          "maximum",
          "anyOf",
          "oneOf",
          "properties",
          "additionalProperties",
          "required",
          "propertyOrdering");

  private static final int MAX_DEPTH = 32;

  private GeminiSchema() {}

  static JsonObject convert(JsonObject schema) {
    return node(schema, schema, 0);
  }

  private static JsonObject node(JsonObject schema, JsonObject root, int depth) {
    if (depth > MAX_DEPTH) {
      return new JsonObject(); // a cycle of references: accept anything below this point
    }
    if (schema.getValue("$ref") instanceof String ref) {
      JsonObject target = resolve(ref, root);
      return target == null ? new JsonObject() : node(target, root, depth + 1);
    }
    JsonObject out = new JsonObject();
    for (Map.Entry<String, Object> entry : schema) {
      String key = entry.getKey();
      Object value = entry.getValue();
      if (!KEPT.contains(key)) {
        continue;
      }
      switch (key) {
        case "properties" -> {
          if (value instanceof JsonObject properties) {
            JsonObject converted = new JsonObject();
            for (Map.Entry<String, Object> property : properties) {
              if (property.getValue() instanceof JsonObject propertySchema) {
                converted.put(property.getKey(), node(propertySchema, root, depth + 1));
              }
            }
            out.put(key, converted);
          }
        }
        case "items", "additionalProperties" -> {
          if (value instanceof JsonObject nested) {
            out.put(key, node(nested, root, depth + 1));
          } else if (value instanceof Boolean) {
            out.put(key, value);
          }
        }
        case "anyOf", "oneOf", "prefixItems" -> {
          if (value instanceof JsonArray list) {
            JsonArray converted = new JsonArray();
            for (Object item : list) {
              if (item instanceof JsonObject nested) {
                converted.add(node(nested, root, depth + 1));
              }
            }
            out.put(key, converted);
          }
        }
        default ->
            out.put(
                key,
                value instanceof JsonObject || value instanceof JsonArray ? copy(value) : value);
      }
    }
    return out;
  }

  private static Object copy(Object value) {
    return value instanceof JsonObject object ? object.copy() : ((JsonArray) value).copy();
  }

  /** {@code #/definitions/x}, {@code #/$defs/x} or any other local JSON pointer. */
  private static JsonObject resolve(String ref, JsonObject root) {
    if (!ref.startsWith("#")) {
      return null;
    }
    Object current = root;
    for (String token : ref.substring(1).split("/")) {
      if (token.isEmpty()) {
        continue;
      }
      String key = token.replace("~1", "/").replace("~0", "~");
      if (!(current instanceof JsonObject object)) {
        return null;
      }
      current = object.getValue(key);
    }
    return current instanceof JsonObject target ? target : null;
  }
}
