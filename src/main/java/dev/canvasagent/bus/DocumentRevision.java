package dev.canvasagent.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * The {@code doc:revision} payload on a document's room: {@code docId} has a new revision, {@code
 * revision} (its revision id), written by {@code author} (the writer's {@link Actor#name()}, as the
 * document's history records it). Only the fact of the change travels, never the text: a client that
 * wants the content reads the document, under its own access check.
 */
public record DocumentRevision(String docId, String revision, String author) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("type", RoomTopic.DOC_REVISION.wireName())
        .put("docId", docId)
        .put("revision", revision)
        .put("author", author);
  }

  public static DocumentRevision fromJson(JsonObject json) {
    String message = "a doc:revision";
    return new DocumentRevision(
        MessageFields.string(json, "docId", message),
        MessageFields.string(json, "revision", message),
        MessageFields.string(json, "author", message));
  }

  /** Publishes this revision on the room's {@code doc:revision} topic. */
  public void publish(EventBus bus, String roomId) {
    RoomTopic.DOC_REVISION.publish(bus, roomId, this);
  }
}
