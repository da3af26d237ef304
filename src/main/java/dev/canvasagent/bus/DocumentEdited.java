package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A person's edit as {@code doc.edit} committed it: the document's revision now, whether the content
 * changed, and its lease (voided by the edit, epoch + 1).
 */
public record DocumentEdited(String id, String revisionId, boolean changed, LeaseView lease)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("revisionId", revisionId)
        .put("changed", changed)
        .put("lease", lease.toJson());
  }

  public static DocumentEdited fromJson(JsonObject json) {
    String message = "an edited document";
    return new DocumentEdited(
        MessageFields.string(json, "id", message),
        MessageFields.string(json, "revisionId", message),
        MessageFields.bool(json, "changed", message),
        LeaseView.fromJson(MessageFields.object(json, "lease", message)));
  }
}
