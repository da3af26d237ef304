package dev.canvasagent.bridge;

import dev.canvasagent.bus.BusMessage;
import dev.canvasagent.bus.RoomId;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A node asks a room's owner for the room's sequenced stream: it serves clients of the room (or keeps
 * it for reconnecting ones). It names those clients, in the order they joined, so an owner that takes
 * the room over knows whom it may elect as host.
 */
record RoomWatch(String roomId, String nodeId, List<RoomClientChange> clients)
    implements BusMessage {
  RoomWatch {
    clients = List.copyOf(clients);
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("nodeId", nodeId)
        .put("clients", new JsonArray(clients.stream().map(RoomClientChange::toJson).toList()));
  }

  static RoomWatch fromJson(JsonObject json) {
    String roomId = ClusterLink.required(json, "roomId", "RoomWatch");
    if (!RoomId.isValid(roomId)) {
      throw new IllegalArgumentException("RoomWatch: 'roomId' is not a room id");
    }
    return new RoomWatch(
        roomId,
        ClusterLink.required(json, "nodeId", "RoomWatch"),
        json.getJsonArray("clients", new JsonArray()).stream()
            .map(client -> RoomClientChange.fromJson((JsonObject) client))
            .toList());
  }
}
