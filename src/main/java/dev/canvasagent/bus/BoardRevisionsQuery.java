package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * Asks the patch engine for a page of a room's stored revisions ({@code patch.board.revisions}): those
 * after revision {@code after} (0: from the first), oldest first, at most {@code limit} (the engine
 * caps it). Answered with a {@link BoardRevisionPage}.
 */
public record BoardRevisionsQuery(String roomId, long after, int limit) implements BusMessage {
  public static final int DEFAULT_LIMIT = 100;

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("roomId", roomId).put("after", after).put("limit", limit);
  }

  /** {@code after} defaults to 0 and {@code limit} to {@value #DEFAULT_LIMIT}. */
  public static BoardRevisionsQuery fromJson(JsonObject json) {
    return new BoardRevisionsQuery(
        MessageFields.string(json, "roomId", "BoardRevisionsQuery"),
        json.getLong("after", 0L),
        json.getInteger("limit", DEFAULT_LIMIT));
  }
}
