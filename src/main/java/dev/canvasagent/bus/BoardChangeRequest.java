package dev.canvasagent.bus;

import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonObject;

/**
 * A change to a room's board for the patch engine ({@code patch.board.apply} from a run,
 * {@code patch.board.change} from a person): the record diff, the revision it was made against, and
 * who made it. The engine answers {@link CommittedRevision}, the revision it stored, or
 * REVISION_CONFLICT when the board has moved past {@code baseRevision}.
 */
public record BoardChangeRequest(String roomId, long baseRevision, RecordDiff diff, String author)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("baseRevision", baseRevision)
        .put("diff", diff.toJson())
        .put("author", author);
  }

  public static BoardChangeRequest fromJson(JsonObject json) {
    return new BoardChangeRequest(
        MessageFields.string(json, "roomId", "BoardChangeRequest"),
        MessageFields.number(json, "baseRevision", "BoardChangeRequest"),
        RecordDiff.fromJson(MessageFields.object(json, "diff", "BoardChangeRequest")),
        MessageFields.string(json, "author", "BoardChangeRequest"));
  }
}
