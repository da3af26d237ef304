package dev.canvasagent.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * The {@code doc:lease} payload on a document's room: the lease of {@code docId} changed ({@code
 * state}: held, renewed, released, preempted or expired) and is now {@code lease}. On the wire the
 * lease's keys sit beside {@code type}, {@code docId} and {@code state}, as the lock indicator reads
 * them.
 */
public record LeaseChange(String docId, String state, LeaseView lease) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return lease.toJson().put("type", "doc:lease").put("docId", docId).put("state", state);
  }

  public static LeaseChange fromJson(JsonObject json) {
    String message = "a doc:lease change";
    return new LeaseChange(
        MessageFields.string(json, "docId", message),
        MessageFields.string(json, "state", message),
        LeaseView.fromJson(json));
  }

  /** Publishes this change on the room's {@code doc:lease} topic. */
  public void publish(EventBus bus, String roomId) {
    RoomTopic.DOC_LEASE.publish(bus, roomId, this);
  }
}
