package dev.canvasagent.model.fake.planner;

import io.vertx.core.json.JsonObject;

/**
 * A shape as the context shows it ({@code {id,type,x,y,w,h,text}}, in the model's coordinates).
 * {@code placed} is false when the context named the shape (a selection) without its geometry.
 */
record SeenShape(
    String id, String type, double x, double y, double w, double h, String text, boolean placed) {

  static SeenShape of(JsonObject json) {
    boolean placed = json.getValue("x") instanceof Number && json.getValue("y") instanceof Number;
    return new SeenShape(
        json.getString("id"),
        json.getValue("type") instanceof String type ? type : "",
        number(json, "x"),
        number(json, "y"),
        number(json, "w"),
        number(json, "h"),
        json.getValue("text") instanceof String text ? text : "",
        placed);
  }

  static SeenShape named(String id) {
    return new SeenShape(id, "", 0, 0, 0, 0, "", false);
  }

  double maxX() {
    return x + w;
  }

  double maxY() {
    return y + h;
  }

  private static double number(JsonObject json, String key) {
    return json.getValue(key) instanceof Number number && Double.isFinite(number.doubleValue())
        ? number.doubleValue()
        : 0;
  }
}
