package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The fields of a document message as its {@code fromJson} reads them: a key the message cannot do
 * without, or one of the wrong type, is INVALID_REQUEST naming the message and the key (answered with
 * that code, never as an internal cast error).
 */
final class DocFields {
  private DocFields() {}

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
    Object value = json.getValue(key);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw wrongType(key, "a string", message);
  }

  /** {@code key}'s whole number; INVALID_REQUEST when it is missing or not one. */
  static long number(JsonObject json, String key, String message) {
    Long value = optionalNumber(json, key, message);
    if (value == null) {
      throw missing(key, message);
    }
    return value;
  }

  /** {@code key}'s whole number, or null when it is missing; INVALID_REQUEST when it is not one. */
  static Long optionalNumber(JsonObject json, String key, String message) {
    Object value = json.getValue(key);
    if (value == null) {
      return null;
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

  /** {@code key}'s boolean; INVALID_REQUEST when it is missing or not one. */
  static boolean bool(JsonObject json, String key, String message) {
    Object value = json.getValue(key);
    if (value instanceof Boolean flag) {
      return flag;
    }
    throw value == null ? missing(key, message) : wrongType(key, "true or false", message);
  }

  /** {@code key}'s JSON object; INVALID_REQUEST when it is missing or not an object. */
  static JsonObject object(JsonObject json, String key, String message) {
    Object value = json.getValue(key);
    if (value instanceof JsonObject object) {
      return object;
    }
    throw value == null ? missing(key, message) : wrongType(key, "an object", message);
  }

  /** {@code key}'s JSON array; INVALID_REQUEST when it is missing or not an array. */
  static JsonArray array(JsonObject json, String key, String message) {
    Object value = json.getValue(key);
    if (value instanceof JsonArray array) {
      return array;
    }
    throw value == null ? missing(key, message) : wrongType(key, "an array", message);
  }

  private static Failure missing(String key, String message) {
    return new Failure(FailureCode.INVALID_REQUEST, message + " needs " + key);
  }

  private static Failure wrongType(String key, String type, String message) {
    return new Failure(FailureCode.INVALID_REQUEST, message + "'s " + key + " must be " + type);
  }
}
