package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * Undo a run: revert the changes run {@code runId} made to room {@code roomId}'s board as one new
 * revision ({@code scheduler.run.revert}, which checks the run, then {@code patch.board.revert}, which
 * computes and commits the revert). Answered with {@link RunReverted}.
 */
public record RunRevertRequest(String roomId, String runId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("runId", runId);
  }

  public static RunRevertRequest fromJson(JsonObject json) {
    return new RunRevertRequest(
        MessageFields.string(json, "roomId", "RunRevertRequest"),
        MessageFields.string(json, "runId", "RunRevertRequest"));
  }
}
