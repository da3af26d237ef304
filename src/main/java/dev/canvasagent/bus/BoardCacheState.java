package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The patch engine's answer to {@code patch.board.state}, for the admin view: the revision of the
 * room's board it holds in memory ({@code cachedRevision}, null when it holds none) and the revision
 * the store has ({@code storedRevision}, 0 for a room never written). Asking loads nothing into the
 * cache and catches nothing up: a held board behind the store shows as such.
 */
public record BoardCacheState(String roomId, Long cachedRevision, long storedRevision)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("cachedRevision", cachedRevision)
        .put("storedRevision", storedRevision);
  }

  public static BoardCacheState fromJson(JsonObject json) {
    String message = "BoardCacheState";
    return new BoardCacheState(
        MessageFields.string(json, "roomId", message),
        MessageFields.optionalNumber(json, "cachedRevision", message),
        MessageFields.number(json, "storedRevision", message));
  }
}
