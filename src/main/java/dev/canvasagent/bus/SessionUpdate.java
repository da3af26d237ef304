package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A person changes a session's title, model or context items (null: as it is); {@code roomId} as in
 * {@link SessionRef}. The context items (shapes, areas and points pinned for the agent) are checked by
 * the bridge against {@code api/session-update.json} and stored as they are: the bus does not read
 * them. They replace the whole list; an empty one clears it.
 */
public record SessionUpdate(
    String sessionId, String roomId, String title, String model, JsonArray contextItems)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json = new SessionRef(sessionId, roomId).toJson();
    if (title != null) {
      json.put("title", title);
    }
    if (model != null) {
      json.put("model", model);
    }
    if (contextItems != null) {
      json.put("contextItems", contextItems.copy());
    }
    return json;
  }

  public static SessionUpdate fromJson(JsonObject json) {
    String message = "a session change";
    Object items = json.getValue("contextItems");
    if (items != null && !(items instanceof JsonArray)) {
      throw new Failure(FailureCode.INVALID_REQUEST, message + "'s contextItems must be an array");
    }
    return new SessionUpdate(
        MessageFields.string(json, "sessionId", message),
        MessageFields.optionalString(json, "roomId", message),
        MessageFields.optionalString(json, "title", message),
        MessageFields.optionalString(json, "model", message),
        items == null ? null : ((JsonArray) items).copy());
  }
}
