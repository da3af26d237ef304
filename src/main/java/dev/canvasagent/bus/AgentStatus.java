package dev.canvasagent.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/** The {@code agent:status} payload; {@code detail} may be null. */
public record AgentStatus(String sessionId, RunState state, JsonObject detail)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("type", "agent:status")
            .put("sessionId", sessionId)
            .put("state", state.wireName());
    if (detail != null) {
      json.put("detail", detail);
    }
    return json;
  }

  /** Publishes this status on the room's {@code agent:status} topic. */
  public void publish(EventBus bus, String roomId) {
    RoomTopic.AGENT_STATUS.publish(bus, roomId, this);
  }
}
