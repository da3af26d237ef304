package dev.canvasagent.board.geometry;

import io.vertx.core.json.JsonObject;

/**
 * Numbers read from board records, which came from browsers and may hold anything: a value that is
 * missing, not a number or not finite gives the fallback instead of an exception.
 */
public final class RecordNumbers {
  private RecordNumbers() {}

  public static double finite(JsonObject object, String key, double fallback) {
    Object value = object == null ? null : object.getValue(key);
    if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
      return number.doubleValue();
    }
    return fallback;
  }

  /** Like {@link #finite}, for values tldraw requires to be greater than 0 (w, h, scale). */
  public static double positive(JsonObject object, String key, double fallback) {
    double value = finite(object, key, fallback);
    return value > 0 ? value : fallback;
  }

  public static JsonObject object(JsonObject object, String key) {
    Object value = object == null ? null : object.getValue(key);
    return value instanceof JsonObject json ? json : new JsonObject();
  }

  public static String string(JsonObject object, String key, String fallback) {
    Object value = object == null ? null : object.getValue(key);
    return value instanceof String string ? string : fallback;
  }
}
