package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The bridge tells the screenshot verticle ({@code screenshot.hosts}) that a client of a room that can
 * answer screenshot requests is {@code present} (it became the room's host) or no longer.
 */
public record HostPresence(String roomId, String clientId, boolean present) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("clientId", clientId).put("present", present);
  }

  /**
   * Null for a report without its three fields, or with one of another type: a one-way message has no
   * one to refuse it to, so its listener ignores it.
   */
  public static HostPresence fromJson(JsonObject json) {
    if (json == null
        || !(json.getValue("roomId") instanceof String roomId)
        || !(json.getValue("clientId") instanceof String clientId)
        || !(json.getValue("present") instanceof Boolean present)) {
      return null;
    }
    return new HostPresence(roomId, clientId, present);
  }
}
