package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The patch engine's answer to {@code patch.board.head}: the room's current revision, and nothing of
 * its records. The board itself is then held on the answering node ({@code NodeBoards}), where the
 * runner and the sanitizer of that node read it; a reader elsewhere asks {@code patch.board.get} for
 * that revision.
 */
public record BoardHead(String roomId, long revision) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("revision", revision);
  }

  public static BoardHead fromJson(JsonObject json) {
    return new BoardHead(
        MessageFields.string(json, "roomId", "BoardHead"),
        MessageFields.number(json, "revision", "BoardHead"));
  }
}
