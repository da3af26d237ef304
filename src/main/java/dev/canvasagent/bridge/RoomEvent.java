package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * One event of a room as every transport carries it: the topic, its payload, and an id that a
 * reconnecting client hands back to resume after it ({@code Last-Event-ID}). Ids name the room
 * incarnation that numbered them (the room's owner node numbers them for every node), so an id of an
 * earlier incarnation (a restart, an owner that changed) is recognised and answered with a resync
 * instead of a wrong replay. Each wire form is encoded once, however many
 * clients the event goes to; the payload must not change after the event is made.
 */
final class RoomEvent {
  private final String id;
  private final RoomTopic topic;
  private final JsonObject payload;
  private Buffer sseChunk;
  private String frameText;
  private String sockJsText;

  RoomEvent(String id, RoomTopic topic, JsonObject payload) {
    this.id = id;
    this.topic = topic;
    this.payload = payload;
  }

  String id() {
    return id;
  }

  RoomTopic topic() {
    return topic;
  }

  JsonObject payload() {
    return payload;
  }

  /** The Server-Sent Events form: {@code id:}, {@code event:}, {@code data:}, as bytes to write as they are. */
  Buffer sseChunk() {
    if (sseChunk == null) {
      StringBuilder chunk = new StringBuilder();
      if (id != null) {
        chunk.append("id: ").append(id).append('\n');
      }
      chunk
          .append("event: ")
          .append(topic.wireName())
          .append('\n')
          .append("data: ")
          .append(payload.encode())
          .append("\n\n");
      sseChunk = Buffer.buffer(chunk.toString());
    }
    return sseChunk;
  }

  /** The WebSocket frame: {@code {topic, payload, id?}}. */
  String frameText() {
    if (frameText == null) {
      JsonObject frame = new JsonObject().put("topic", topic.wireName()).put("payload", payload);
      if (id != null) {
        frame.put("id", id);
      }
      frameText = frame.encode();
    }
    return frameText;
  }

  /** The SockJS event-bus bridge message: {@code {type: "rec", address, body, headers?}}. */
  String sockJsText(String roomId) {
    if (sockJsText == null) {
      JsonObject message =
          new JsonObject()
              .put("type", "rec")
              .put("address", topic.address(roomId))
              .put("body", payload);
      if (id != null) {
        message.put("headers", new JsonObject().put("id", id));
      }
      sockJsText = message.encode();
    }
    return sockJsText;
  }
}
