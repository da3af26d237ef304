package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The scheduler's answer to {@code scheduler.room.runs}, for the admin view: the room's runs it is
 * running, and how many of the room's runs wait in its queues. A scheduler knows the sessions its node
 * owns; on a cluster the other nodes' are theirs.
 */
public record RoomRuns(String roomId, List<RunActivity> running, int queued) implements BusMessage {
  public RoomRuns {
    running = List.copyOf(running);
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("running", MessageFields.array(running.stream().map(RunActivity::toJson).toList()))
        .put("queued", queued);
  }

  public static RoomRuns fromJson(JsonObject json) {
    String message = "RoomRuns";
    return new RoomRuns(
        MessageFields.string(json, "roomId", message),
        MessageFields.objects(json, "running", message).stream()
            .map(RunActivity::fromJson)
            .toList(),
        MessageFields.integer(json, "queued", message));
  }
}
