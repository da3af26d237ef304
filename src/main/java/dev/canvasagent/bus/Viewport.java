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
}
