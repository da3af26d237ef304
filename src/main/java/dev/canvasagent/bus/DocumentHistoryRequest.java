package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** A document's revisions and recorded diffs ({@code doc.revisions}), at most {@code limit} of each. */
public record DocumentHistoryRequest(String docId, int limit) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("docId", docId).put("limit", limit);
  }

  public static DocumentHistoryRequest fromJson(JsonObject json) {
    String message = "a document history request";
    return new DocumentHistoryRequest(
        MessageFields.string(json, "docId", message),
        MessageFields.integer(json, "limit", message));
  }
}
