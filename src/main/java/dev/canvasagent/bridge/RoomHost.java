package dev.canvasagent.bridge;

import dev.canvasagent.bus.BusMessage;
import io.vertx.core.json.JsonObject;

/**
 * A room's host as its owner elected it, announced to every node ({@code clientId} and {@code nodeId}
 * null when the room has none), so that the screenshot verticle of any node knows whom a run's
 * capture will reach.
 */
record RoomHost(String roomId, String clientId, String nodeId) implements BusMessage {

  static RoomHost none(String roomId) {
    return new RoomHost(roomId, null, null);
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("clientId", clientId).put("nodeId", nodeId);
  }

  static RoomHost fromJson(JsonObject json) {
    return new RoomHost(
        json.getString("roomId"), json.getString("clientId"), json.getString("nodeId"));
  }
}
