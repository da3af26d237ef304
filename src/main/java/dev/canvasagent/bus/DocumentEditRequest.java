package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A person's edit of a document ({@code doc.edit}): its whole new content, written only on {@code
 * baseRevision} (the revision id the person edited), and {@code author}, who it is recorded for.
 */
public record DocumentEditRequest(String docId, String content, String baseRevision, Actor author)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return author.into(
        new JsonObject()
            .put("docId", docId)
            .put("content", content)
            .put("baseRevision", baseRevision));
  }

  public static DocumentEditRequest fromJson(JsonObject json) {
    String message = "a document edit";
    return new DocumentEditRequest(
        MessageFields.string(json, "docId", message),
        MessageFields.string(json, "content", message),
        MessageFields.string(json, "baseRevision", message),
        Actor.from(json));
  }
}
