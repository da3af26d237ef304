package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** A document {@code doc.create} made: its id, room and first revision. */
public record DocumentCreated(String id, String roomId, String revisionId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("roomId", roomId).put("revisionId", revisionId);
  }

  public static DocumentCreated fromJson(JsonObject json) {
    String message = "a created document";
    return new DocumentCreated(
        MessageFields.string(json, "id", message),
        MessageFields.string(json, "roomId", message),
        MessageFields.string(json, "revisionId", message));
  }
}
