package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * Create a document ({@code doc.create}): its id, the room its lease changes go out on, its title and
 * first content; {@code author} (the token's subject) is recorded as the first revision's.
 */
public record DocumentCreateRequest(
    String id, String roomId, String title, String content, Actor author) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return author.into(
        new JsonObject()
            .put("id", id)
            .put("roomId", roomId)
            .put("title", title)
            .put("content", content));
  }

  public static DocumentCreateRequest fromJson(JsonObject json) {
    String message = "a document to create";
    return new DocumentCreateRequest(
        MessageFields.string(json, "id", message),
        MessageFields.string(json, "roomId", message),
        MessageFields.string(json, "title", message),
        MessageFields.string(json, "content", message),
        Actor.from(json));
  }
}
