package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * Which board {@code patch.board.get} answers: the room's current one (no {@code revision}), or the
 * room's board at {@code revision}, which the patch engine answers from what it holds (catching up
 * from the store when it is behind) and refuses with REVISION_CONFLICT once the room has moved past it.
 */
public record BoardRef(String roomId, Long revision) implements BusMessage {
  /** The room's board as the store has it now. */
  public static BoardRef current(String roomId) {
    return new BoardRef(roomId, null);
  }

  /** The room's board at {@code revision}. */
  public static BoardRef at(String roomId, long revision) {
    return new BoardRef(roomId, revision);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("roomId", roomId);
    return revision == null ? json : json.put("revision", revision);
  }

  public static BoardRef fromJson(JsonObject json) {
    Long revision = MessageFields.optionalNumber(json, "revision", "BoardRef");
    if (revision != null && revision < 0) {
      throw new Failure(FailureCode.INVALID_REQUEST, "BoardRef: revision must not be negative");
    }
    return new BoardRef(MessageFields.string(json, "roomId", "BoardRef"), revision);
  }
}
