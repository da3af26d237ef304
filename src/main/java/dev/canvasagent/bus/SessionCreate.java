package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A person asks the scheduler for a new session in {@code roomId}: its title (null: the default, named
 * for the time) and model (null: the server's default). With an idempotency key, a retry in the same
 * room answers the session the key created the first time.
 */
public record SessionCreate(String roomId, String title, String model, IdempotencyKey idempotency)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("roomId", roomId);
    if (title != null) {
      json.put("title", title);
    }
    if (model != null) {
      json.put("model", model);
    }
    return idempotency == null ? json : idempotency.addTo(json);
  }

  public static SessionCreate fromJson(JsonObject json) {
    String message = "a session to create";
    return new SessionCreate(
        MessageFields.string(json, "roomId", message),
        MessageFields.optionalString(json, "title", message),
        MessageFields.optionalString(json, "model", message),
        IdempotencyKey.in(json));
  }
}
