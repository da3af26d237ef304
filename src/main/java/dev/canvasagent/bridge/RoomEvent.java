package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.json.JsonObject;

/**
 * One event of a room as every transport carries it: the topic, its payload, and an id that a
 * reconnecting client hands back to resume after it ({@code Last-Event-ID}). Ids name the bridge that
 * numbered them, so an id from another node or an earlier process is recognised and answered with a
 * resync instead of a wrong replay.
 */
record RoomEvent(String id, RoomTopic topic, JsonObject payload) {
  /** The WebSocket / SockJS frame: {@code {topic, payload, id}}. */
  JsonObject toFrame() {
    JsonObject frame = new JsonObject().put("topic", topic.wireName()).put("payload", payload);
    if (id != null) {
      frame.put("id", id);
    }
    return frame;
  }
}
