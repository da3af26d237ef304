package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The fields of a message as its {@code fromJson} reads them: a key a message cannot do without, or one
 * of the wrong type, is INVALID_REQUEST naming the message and the key, never a cast error.
 */
final class MessageFields {
  private MessageFields() {}

  /** {@code key}'s string; INVALID_REQUEST when it is missing or not a string. */
  static String string(JsonObject json, String key, String message) {
    String value = optionalString(json, key, message);
    if (value == null) {
      throw missing(key, message);
    }
    return value;
  }

  /** {@code key}'s string, or null when it is missing; INVALID_REQUEST when it is not a string. */
  static String optionalString(JsonObject json, String key, String message) {
    Object value = value(json, key, message);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw wrongType(key, "a string", message);
  }

  /** {@code key}'s whole number; INVALID_REQUEST when it is missing or not one. */
  static long number(JsonObject json, String key, String message) {
    Object value = value(json, key, message);
    if (value == null) {
      throw missing(key, message);
    }
    if (value instanceof Integer || value instanceof Long) {
      return ((Number) value).longValue();
    }
    throw wrongType(key, "a whole number", message);
  }

  /** {@code key}'s whole number within an {@code int}; INVALID_REQUEST when it is missing or not one. */
  static int integer(JsonObject json, String key, String message) {
    long value = number(json, key, message);
    if (value != (int) value) {
      throw wrongType(key, "a whole number of at most " + Integer.MAX_VALUE, message);
    }
    return (int) value;
  }

  /** {@code key}'s JSON object; INVALID_REQUEST when it is missing or not an object. */
  static JsonObject object(JsonObject json, String key, String message) {
    return required(json, key, message, JsonObject.class, "an object");
  }

  /** {@code key}'s array of JSON objects; INVALID_REQUEST when it is missing or holds anything else. */
  static List<JsonObject> objects(JsonObject json, String key, String message) {
    Object value = value(json, key, message);
    if (value == null) {
      throw missing(key, message);
    }
    if (value instanceof JsonArray array
        && array.stream().allMatch(item -> item instanceof JsonObject)) {
      return array.stream().map(JsonObject.class::cast).toList();
    }
    throw wrongType(key, "an array of objects", message);
  }

  /** {@code key}'s string, which must be there and not blank. */
  static String nonBlank(JsonObject json, String key, String message) {
    String value = string(json, key, message);
    if (value.isBlank()) {
      throw wrongType(key, "a non-empty string", message);
    }
    return value;
  }

  /** {@code key}'s JSON array; INVALID_REQUEST when it is missing or not an array. */
  static JsonArray jsonArray(JsonObject json, String key, String message) {
    return required(json, key, message, JsonArray.class, "an array");
  }

  /** {@code objects} as a JSON array (each a copy). */
  static JsonArray array(List<JsonObject> objects) {
    JsonArray array = new JsonArray();
    objects.forEach(object -> array.add(object.copy()));
    return array;
  }

  /** {@code key}'s whole number, or null when it is missing; INVALID_REQUEST when it is not one. */
  static Long optionalNumber(JsonObject json, String key, String message) {
    return value(json, key, message) == null ? null : number(json, key, message);
  }

  /** {@code key}'s boolean; INVALID_REQUEST when it is missing or not one. */
  static boolean bool(JsonObject json, String key, String message) {
    return required(json, key, message, Boolean.class, "true or false");
  }

  /** {@code key}'s value as a {@code type}; INVALID_REQUEST, saying it must be {@code described}, otherwise. */
  private static <T> T required(
      JsonObject json, String key, String message, Class<T> type, String described) {
    Object value = value(json, key, message);
    if (value == null) {
      throw missing(key, message);
    }
    if (type.isInstance(value)) {
      return type.cast(value);
    }
    throw wrongType(key, described, message);
  }

  /** {@code key}'s value or null; a message without a body at all is INVALID_REQUEST. */
  private static Object value(JsonObject json, String key, String message) {
    if (json == null) {
      throw new Failure(FailureCode.INVALID_REQUEST, message + " has no body");
    }
    return json.getValue(key);
  }

  private static Failure missing(String key, String message) {
    return new Failure(FailureCode.INVALID_REQUEST, message + " needs " + key);
  }

  private static Failure wrongType(String key, String type, String message) {
    return new Failure(FailureCode.INVALID_REQUEST, message + "'s " + key + " must be " + type);
  }
}
