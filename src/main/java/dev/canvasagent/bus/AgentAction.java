package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** One action as the wire carries it: {@code {id, name, params}}; {@code id} is stable across partials. */
public record AgentAction(String id, String name, JsonObject params) {
  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("name", name).put("params", params);
  }

  public static AgentAction fromJson(JsonObject json) {
    return new AgentAction(
        json.getString("id"), json.getString("name"), json.getJsonObject("params"));
  }
}
