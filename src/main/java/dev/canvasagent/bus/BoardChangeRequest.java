package dev.canvasagent.bus;

import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonObject;

/**
 * A change to a room's board for the patch engine ({@code patch.board.apply} from a run,
 * {@code patch.board.change} from a person): the record diff, the revision it was made against, and
 * who made it. The engine answers {@link CommittedRevision}, the revision it stored, or
 * REVISION_CONFLICT when the board has moved past {@code baseRevision}. {@code runId} names the run
 * whose action it is (null for anyone else's change): the stored revision keeps it, so the run can be
 * reverted exactly.
 */
public record BoardChangeRequest(
    String roomId, long baseRevision, RecordDiff diff, String author, String runId)
    implements BusMessage {
  /** A change no run made. */
  public BoardChangeRequest(String roomId, long baseRevision, RecordDiff diff, String author) {
    this(roomId, baseRevision, diff, author, null);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("roomId", roomId)
            .put("baseRevision", baseRevision)
            .put("diff", diff.toJson())
            .put("author", author);
    return runId == null ? json : json.put("runId", runId);
  }

  public static BoardChangeRequest fromJson(JsonObject json) {
    return new BoardChangeRequest(
        MessageFields.string(json, "roomId", "BoardChangeRequest"),
        MessageFields.number(json, "baseRevision", "BoardChangeRequest"),
        RecordDiff.fromJson(MessageFields.object(json, "diff", "BoardChangeRequest")),
        MessageFields.string(json, "author", "BoardChangeRequest"),
        json.getString("runId"));
  }
}
