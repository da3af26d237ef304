package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * What the SockJS bridge lets through on {@code bridge.sockjs.handled} once it has checked and handled
 * a browser's message itself: the room, the client and the topic, never the payload. Nothing listens.
 */
public record FrameHandled(String roomId, String clientId, String topic) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("clientId", clientId).put("topic", topic);
  }

  public static FrameHandled fromJson(JsonObject json) {
    return new FrameHandled(
        MessageFields.string(json, "roomId", "FrameHandled"),
        MessageFields.string(json, "clientId", "FrameHandled"),
        MessageFields.string(json, "topic", "FrameHandled"));
  }
}
