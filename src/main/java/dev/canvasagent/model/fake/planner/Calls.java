package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer.ToolCall;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The catalog actions the planner writes, with their arguments as the catalog's schemas name them. */
final class Calls {
  private Calls() {}

  static ToolCall create(JsonObject arguments) {
    return new ToolCall("create_shape", arguments);
  }

  static ToolCall move(List<SeenShape> shapes, double dx, double dy) {
    return new ToolCall(
        "move",
        new JsonObject().put("shapeIds", ids(shapes)).put("dx", whole(dx)).put("dy", whole(dy)));
  }

  static ToolCall delete(List<SeenShape> shapes) {
    return new ToolCall("delete_shape", new JsonObject().put("shapeIds", ids(shapes)));
  }

  static ToolCall clear() {
    return new ToolCall("clear", new JsonObject());
  }

  static ToolCall align(List<SeenShape> shapes, String alignment) {
    return new ToolCall(
        "align", new JsonObject().put("shapeIds", ids(shapes)).put("alignment", alignment));
  }

  static ToolCall distribute(List<SeenShape> shapes, String direction) {
    return new ToolCall(
        "distribute", new JsonObject().put("shapeIds", ids(shapes)).put("direction", direction));
  }

  static ToolCall resize(List<SeenShape> shapes, double factor, JsonObject origin) {
    return new ToolCall(
        "resize",
        new JsonObject()
            .put("shapeIds", ids(shapes))
            .put("scaleX", factor)
            .put("scaleY", factor)
            .mergeIn(origin));
  }

  static ToolCall recolor(SeenShape shape, String color) {
    return new ToolCall(
        "update_shape",
        new JsonObject()
            .put("shapeId", shape.id())
            .put("props", new JsonObject().put("color", color)));
  }

  static ToolCall arrow(SeenShape from, SeenShape to) {
    return create(
        new JsonObject().put("type", "arrow").put("fromId", from.id()).put("toId", to.id()));
  }

  static JsonObject point(double x, double y) {
    return new JsonObject().put("x", whole(x)).put("y", whole(y));
  }

  /** Whole units: the model's world is rounded. */
  static long whole(double value) {
    return Math.round(value);
  }

  private static JsonArray ids(List<SeenShape> shapes) {
    JsonArray ids = new JsonArray();
    shapes.forEach(shape -> ids.add(shape.id()));
    return ids;
  }
}
