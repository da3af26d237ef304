package dev.canvasagent.bridge;

import dev.canvasagent.bus.BusMessage;
import io.vertx.core.json.JsonObject;

/**
 * One message of a room's sequenced stream, as the room's owner sends it to every node that watches
 * the room: a room topic's payload, or a host change ({@code canvas:host}, {@code hostClientId} null
 * when the room has none). {@code position} counts every message of the owner's incarnation, so a
 * node sees a gap; {@code eventId} ({@code <incarnation>-<n>}) is the id browsers resume from, null
 * for what is not replayed (partial envelopes, screenshot requests, host changes). {@code messageId}
 * is the publisher's id of the message ({@code RoomTopic.MESSAGE_ID_HEADER}; null for a host change),
 * the same in the streams of two owners while a room moves from one to the other.
 */
record Sequenced(
    String roomId,
    String ownerNode,
    String incarnation,
    long position,
    String eventId,
    String topic,
    JsonObject payload,
    String messageId)
    implements BusMessage {

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("roomId", roomId)
            .put("ownerNode", ownerNode)
            .put("incarnation", incarnation)
            .put("position", position)
            .put("topic", topic)
            .put("payload", payload);
    if (eventId != null) {
      json.put("eventId", eventId);
    }
    if (messageId != null) {
      json.put("messageId", messageId);
    }
    return json;
  }

  static Sequenced fromJson(JsonObject json) {
    return new Sequenced(
        ClusterLink.required(json, "roomId", "Sequenced"),
        ClusterLink.required(json, "ownerNode", "Sequenced"),
        ClusterLink.required(json, "incarnation", "Sequenced"),
        json.getLong("position", 0L),
        json.getString("eventId"),
        ClusterLink.required(json, "topic", "Sequenced"),
        json.getJsonObject("payload"),
        json.getString("messageId"));
  }
}
