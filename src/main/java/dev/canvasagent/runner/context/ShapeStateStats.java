package dev.canvasagent.runner.context;

import io.vertx.core.json.JsonObject;

/** How much shape state the prompt carried: records sent, their bytes, and whether the limit cut some. */
public record ShapeStateStats(int count, int bytes, boolean truncated) {
  public static final ShapeStateStats NONE = new ShapeStateStats(0, 0, false);

  public JsonObject toJson() {
    return new JsonObject().put("count", count).put("bytes", bytes).put("truncated", truncated);
  }

  static ShapeStateStats fromJson(JsonObject json) {
    return json == null
        ? NONE
        : new ShapeStateStats(
            json.getInteger("count", 0),
            json.getInteger("bytes", 0),
            json.getBoolean("truncated", false));
  }
}
