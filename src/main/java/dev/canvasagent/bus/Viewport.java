package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** A page-space rectangle: the part of the board a person is looking at. */
public record Viewport(double x, double y, double w, double h) {
  public JsonObject toJson() {
    return new JsonObject().put("x", x).put("y", y).put("w", w).put("h", h);
  }

  /** Null when absent; the bridge has already checked the shape against the request schema. */
  public static Viewport fromJson(JsonObject json) {
    if (json == null) {
      return null;
    }
    return new Viewport(
        json.getDouble("x"), json.getDouble("y"), json.getDouble("w"), json.getDouble("h"));
  }

  /**
   * {@code value} read as a rectangle when it is one: {@code {x, y, w, h}} of finite numbers, w and h at
   * least 0. Null for anything else, unchecked JSON from a client included.
   */
  public static Viewport checked(Object value) {
    if (!(value instanceof JsonObject json)) {
      return null;
    }
    double[] sides = new double[4];
    String[] fields = {"x", "y", "w", "h"};
    for (int i = 0; i < fields.length; i++) {
      if (!(json.getValue(fields[i]) instanceof Number number)
          || !Double.isFinite(number.doubleValue())) {
        return null;
      }
      sides[i] = number.doubleValue();
    }
    if (sides[2] < 0 || sides[3] < 0) {
      return null;
    }
    return new Viewport(sides[0], sides[1], sides[2], sides[3]);
  }
}
