package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The scheduler's answer to creating or changing a session: the session as the sessions API shows it
 * ({@code id, roomId, title, model, origin, contextItems, createdAt, lastActiveAt}). The bus does not
 * read it: the bridge relays it unchanged to the HTTP client.
 */
public record SessionView(JsonObject session) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("session", session.copy());
  }

  public static SessionView fromJson(JsonObject json) {
    return new SessionView(MessageFields.object(json, "session", "a session answer").copy());
  }
}
