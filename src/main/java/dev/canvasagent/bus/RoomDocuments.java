package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The lease manager's answer to {@code doc.room.leases}, for the admin view: the documents of a room
 * (at most {@link #LIMIT}, the oldest first), each with its lease as anyone who may read the document
 * sees it, and the agent session that holds it (null when a person holds it, or nobody).
 */
public record RoomDocuments(String roomId, List<DocumentLease> documents) implements BusMessage {
  /** The most documents one answer lists. */
  public static final int LIMIT = 100;

  public RoomDocuments {
    documents = List.copyOf(documents);
  }

  /** One document's lease. */
  public record DocumentLease(String docId, LeaseView lease, String agentSession) {
    JsonObject toJson() {
      return new JsonObject()
          .put("docId", docId)
          .put("lease", lease.toJson())
          .put("agentSession", agentSession);
    }

    static DocumentLease fromJson(JsonObject json) {
      String message = "RoomDocuments.DocumentLease";
      return new DocumentLease(
          MessageFields.string(json, "docId", message),
          LeaseView.fromJson(MessageFields.object(json, "lease", message)),
          MessageFields.optionalString(json, "agentSession", message));
    }
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put(
            "documents",
            MessageFields.array(documents.stream().map(DocumentLease::toJson).toList()));
  }

  public static RoomDocuments fromJson(JsonObject json) {
    String message = "RoomDocuments";
    return new RoomDocuments(
        MessageFields.string(json, "roomId", message),
        MessageFields.objects(json, "documents", message).stream()
            .map(DocumentLease::fromJson)
            .toList());
  }
}
