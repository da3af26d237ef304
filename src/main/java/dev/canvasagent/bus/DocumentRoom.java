package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** The room a document belongs to, as {@code doc.room} answers it for access checks. */
public record DocumentRoom(String docId, String roomId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("docId", docId).put("roomId", roomId);
  }

  public static DocumentRoom fromJson(JsonObject json) {
    String message = "a document's room";
    return new DocumentRoom(
        MessageFields.string(json, "docId", message),
        MessageFields.string(json, "roomId", message));
  }
}
