package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** Names a room: asks for something of the whole room, its board ({@code patch.board.get}) or its viewports. */
public record RoomRef(String roomId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId);
  }

  public static RoomRef fromJson(JsonObject json) {
    return new RoomRef(MessageFields.string(json, "roomId", "RoomRef"));
  }
}
