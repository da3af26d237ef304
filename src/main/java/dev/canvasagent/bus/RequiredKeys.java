package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Reads the keys a bus message cannot do without. A message that lacks one, or has it of another type,
 * is refused with INVALID_REQUEST naming the message and the key ({@code RoomRef: roomId must be a
 * string}), never with a bare NullPointerException.
 */
final class RequiredKeys {
  private RequiredKeys() {}

  /** {@code json} itself, which must be there. */
  static JsonObject message(JsonObject json, String message) {
    if (json == null) {
      throw new Failure(FailureCode.INVALID_REQUEST, message + ": the body is missing");
    }
    return json;
  }

  static String text(JsonObject json, String key, String message) {
    if (!(message(json, message).getValue(key) instanceof String text)) {
      throw missing(message, key, "a string");
    }
    return text;
  }

  static long number(JsonObject json, String key, String message) {
    if (!(message(json, message).getValue(key) instanceof Number number)) {
      throw missing(message, key, "a number");
    }
    return number.longValue();
  }

  static JsonObject object(JsonObject json, String key, String message) {
    if (!(message(json, message).getValue(key) instanceof JsonObject object)) {
      throw missing(message, key, "an object");
    }
    return object;
  }

  static JsonArray array(JsonObject json, String key, String message) {
    if (!(message(json, message).getValue(key) instanceof JsonArray array)) {
      throw missing(message, key, "an array");
    }
    return array;
  }

  private static Failure missing(String message, String key, String type) {
    return new Failure(FailureCode.INVALID_REQUEST, message + ": " + key + " must be " + type);
  }
}
