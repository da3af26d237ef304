package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A room's sessions, the most recently active first, each as the sessions API shows it (see
 * {@link SessionView}); the bridge relays them unchanged to the HTTP client.
 */
public record SessionList(String roomId, List<JsonObject> sessions) implements BusMessage {
  public SessionList {
    sessions = List.copyOf(sessions);
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("sessions", MessageFields.array(sessions));
  }

  public static SessionList fromJson(JsonObject json) {
    String message = "a session list";
    return new SessionList(
        MessageFields.string(json, "roomId", message),
        MessageFields.objects(json, "sessions", message));
  }
}
