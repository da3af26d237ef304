package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A document's history as {@code doc.revisions} answers it, the newest first: its revisions ({@code
 * [{version, revisionId, author, subject, createdAt}]}) and recorded diffs ({@code [{version,
 * operation, start_line, end_line, before, after, reason, author, subject, created_at}]}). Both are
 * opaque to the bus: views relayed unchanged to HTTP clients.
 */
public record DocumentHistory(String id, List<JsonObject> revisions, List<JsonObject> diffs)
    implements BusMessage {
  public DocumentHistory {
    revisions = List.copyOf(revisions);
    diffs = List.copyOf(diffs);
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("revisions", MessageFields.array(revisions))
        .put("diffs", MessageFields.array(diffs));
  }

  public static DocumentHistory fromJson(JsonObject json) {
    String message = "a document history";
    return new DocumentHistory(
        MessageFields.string(json, "id", message),
        MessageFields.objects(json, "revisions", message),
        MessageFields.objects(json, "diffs", message));
  }
}
