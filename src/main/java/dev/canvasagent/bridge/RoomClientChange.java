package dev.canvasagent.bridge;

import dev.canvasagent.bus.BusMessage;
import io.vertx.core.json.JsonObject;

/**
 * A node tells a room's owner that one of its clients joined ({@code present}), changed whether it
 * can host, or left: what the owner elects the room's host from.
 */
record RoomClientChange(
    String roomId, String nodeId, String clientId, boolean canHost, boolean present)
    implements BusMessage {

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("nodeId", nodeId)
        .put("clientId", clientId)
        .put("canHost", canHost)
        .put("present", present);
  }

  static RoomClientChange fromJson(JsonObject json) {
    return new RoomClientChange(
        ClusterLink.required(json, "roomId", "RoomClientChange"),
        ClusterLink.required(json, "nodeId", "RoomClientChange"),
        ClusterLink.required(json, "clientId", "RoomClientChange"),
        json.getBoolean("canHost", false),
        json.getBoolean("present", false));
  }
}
