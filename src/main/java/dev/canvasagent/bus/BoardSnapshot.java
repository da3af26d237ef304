package dev.canvasagent.bus;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A room's whole board at one revision, as the patch engine answers {@code patch.board.get}:
 * {@code {roomId, revision, records}}, the board's own JSON ({@link Board#toJson}). The tldraw records
 * are opaque to the bus; the patch engine checked each one when it was committed.
 */
public record BoardSnapshot(Board board) implements BusMessage {
  public long revision() {
    return board.revision();
  }

  /** The board's records, as an array of copies. */
  public JsonArray records() {
    return new JsonArray(board.records().values().stream().map(JsonObject::copy).toList());
  }

  @Override
  public JsonObject toJson() {
    return board.toJson();
  }

  public static BoardSnapshot fromJson(JsonObject json) {
    MessageFields.string(json, "roomId", "BoardSnapshot");
    MessageFields.number(json, "revision", "BoardSnapshot");
    MessageFields.jsonArray(json, "records", "BoardSnapshot");
    return new BoardSnapshot(Board.fromJson(json));
  }
}
