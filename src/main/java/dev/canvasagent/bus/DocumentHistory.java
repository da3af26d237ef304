package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A document's history as {@code doc.revisions} answers it, the newest first: its revisions ({@code
 * [{version, revisionId, author, subject, createdAt}]}) and recorded diffs ({@code [{version,
 * operation, start_line, end_line, before, after, reason, author, subject, created_at}]}). Both are
 * opaque to the bus: views relayed unchanged to HTTP clients.
 */
public record DocumentHistory(String id, JsonArray revisions, JsonArray diffs)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("revisions", revisions).put("diffs", diffs);
  }

  public static DocumentHistory fromJson(JsonObject json) {
    String message = "a document history";
    return new DocumentHistory(
        DocFields.string(json, "id", message),
        DocFields.array(json, "revisions", message),
        DocFields.array(json, "diffs", message));
  }
}
