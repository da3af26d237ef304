package dev.canvasagent.bridge;

import dev.canvasagent.bus.BusMessage;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The owner's answer to a {@link RoomWatch}: where its stream of the room is ({@code incarnation},
 * {@code position}, the latest event number), the events it can still replay, the latest envelope seq
 * of each session (what an ack may name) and the host. A node that starts from it holds the same
 * replay buffer as every other node of the room, and takes the stream's messages after
 * {@code position}.
 */
record RoomSnapshot(
    String roomId,
    String ownerNode,
    String incarnation,
    long position,
    long latestNumber,
    List<RoomEvent> events,
    Map<String, Long> lastSeqBySession,
    String hostClientId)
    implements BusMessage {
  RoomSnapshot {
    events = List.copyOf(events);
    lastSeqBySession = Map.copyOf(lastSeqBySession);
  }

  @Override
  public JsonObject toJson() {
    JsonArray replay = new JsonArray();
    for (RoomEvent event : events) {
      replay.add(
          new JsonObject()
              .put("id", event.id())
              .put("topic", event.topic().wireName())
              .put("payload", event.payload()));
    }
    JsonObject seqs = new JsonObject();
    lastSeqBySession.forEach(seqs::put);
    return new JsonObject()
        .put("roomId", roomId)
        .put("ownerNode", ownerNode)
        .put("incarnation", incarnation)
        .put("position", position)
        .put("latestNumber", latestNumber)
        .put("events", replay)
        .put("lastSeqBySession", seqs)
        .put("hostClientId", hostClientId);
  }

  static RoomSnapshot fromJson(JsonObject json) {
    List<RoomEvent> events =
        json.getJsonArray("events", new JsonArray()).stream()
            .map(JsonObject.class::cast)
            .map(
                event ->
                    new RoomEvent(
                        event.getString("id"),
                        RoomTopic.fromWireName(event.getString("topic")).orElseThrow(),
                        event.getJsonObject("payload")))
            .toList();
    Map<String, Long> seqs = new java.util.HashMap<>();
    json.getJsonObject("lastSeqBySession", new JsonObject())
        .forEach(entry -> seqs.put(entry.getKey(), ((Number) entry.getValue()).longValue()));
    return new RoomSnapshot(
        json.getString("roomId"),
        json.getString("ownerNode"),
        json.getString("incarnation"),
        json.getLong("position", 0L),
        json.getLong("latestNumber", 0L),
        events,
        seqs,
        json.getString("hostClientId"));
  }
}
