package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The {@code agent:screenshot_request} payload: the screenshot verticle asks a room's host for an
 * image of at most {@code maxSide} pixels a side, of {@code bounds} (its whole viewport when null),
 * to be answered on {@code agent:screenshot} with the same {@code requestId}.
 */
public record HostScreenshotRequest(
    String sessionId, String requestId, int maxSide, Viewport bounds) implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("type", RoomTopic.AGENT_SCREENSHOT_REQUEST.wireName())
            .put("sessionId", sessionId)
            .put("requestId", requestId)
            .put("maxSize", new JsonObject().put("w", maxSide).put("h", maxSide));
    if (bounds != null) {
      json.put("bounds", bounds.toJson());
    }
    return json;
  }
}
