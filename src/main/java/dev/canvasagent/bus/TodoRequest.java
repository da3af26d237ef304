package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A running run's {@code todo} action for the scheduler: its sanitized {@code params} and which run,
 * session and room it comes from. The params stay JSON: the catalog's {@code todo.json} schema, which
 * the sanitizer checked them against, is their contract, not the bus.
 */
public record TodoRequest(String runId, String sessionId, String roomId, JsonObject params)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("runId", runId)
        .put("sessionId", sessionId)
        .put("roomId", roomId)
        .put("params", params);
  }

  public static TodoRequest fromJson(JsonObject json) {
    return new TodoRequest(
        json.getString("runId"),
        json.getString("sessionId"),
        json.getString("roomId"),
        json.getJsonObject("params", new JsonObject()));
  }
}
