package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** A request that names one agent session and nothing else: its todos, or canceling its work. */
public record SessionRef(String sessionId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("sessionId", sessionId);
  }

  /** INVALID_REQUEST without a non-empty {@code sessionId}. */
  public static SessionRef fromJson(JsonObject json) {
    return new SessionRef(RequiredKeys.string(json, "sessionId"));
  }
}
