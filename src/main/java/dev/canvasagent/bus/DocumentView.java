package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A document as {@code doc.get} answers it: its content at {@code revisionId}, how deep its undo and
 * redo stacks are, its lease, and its snapshots. {@code snapshots} ({@code [{snapshot_id, revision_id,
 * label, description, line_count, created_at}]}, the newest first) is opaque to the bus: relayed
 * unchanged to HTTP clients, and read by the agent through its tools, never from here.
 */
public record DocumentView(
    String id,
    String roomId,
    String title,
    String content,
    String revisionId,
    long version,
    int undoDepth,
    int redoDepth,
    long createdAt,
    long updatedAt,
    LeaseView lease,
    JsonArray snapshots)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("roomId", roomId)
        .put("title", title)
        .put("content", content)
        .put("revisionId", revisionId)
        .put("version", version)
        .put("undoDepth", undoDepth)
        .put("redoDepth", redoDepth)
        .put("createdAt", createdAt)
        .put("updatedAt", updatedAt)
        .put("lease", lease.toJson())
        .put("snapshots", snapshots);
  }

  public static DocumentView fromJson(JsonObject json) {
    String message = "a document";
    return new DocumentView(
        DocFields.string(json, "id", message),
        DocFields.string(json, "roomId", message),
        DocFields.string(json, "title", message),
        DocFields.string(json, "content", message),
        DocFields.string(json, "revisionId", message),
        DocFields.number(json, "version", message),
        DocFields.integer(json, "undoDepth", message),
        DocFields.integer(json, "redoDepth", message),
        DocFields.number(json, "createdAt", message),
        DocFields.number(json, "updatedAt", message),
        LeaseView.fromJson(DocFields.object(json, "lease", message)),
        DocFields.array(json, "snapshots", message));
  }
}
