package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.List;

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
    List<JsonObject> snapshots)
    implements BusMessage {
  public DocumentView {
    snapshots = List.copyOf(snapshots);
  }

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
        .put("snapshots", MessageFields.array(snapshots));
  }

  public static DocumentView fromJson(JsonObject json) {
    String message = "a document";
    return new DocumentView(
        MessageFields.string(json, "id", message),
        MessageFields.string(json, "roomId", message),
        MessageFields.string(json, "title", message),
        MessageFields.string(json, "content", message),
        MessageFields.string(json, "revisionId", message),
        MessageFields.number(json, "version", message),
        MessageFields.integer(json, "undoDepth", message),
        MessageFields.integer(json, "redoDepth", message),
        MessageFields.number(json, "createdAt", message),
        MessageFields.number(json, "updatedAt", message),
        LeaseView.fromJson(MessageFields.object(json, "lease", message)),
        MessageFields.objects(json, "snapshots", message));
  }
}
