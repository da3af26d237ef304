package dev.canvasagent.bus;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import io.vertx.core.json.JsonObject;

/**
 * One action for the sanitizer to judge ({@code sanitizer.sanitize}): the action as the model wrote it,
 * the room's board it is judged against, and the frame the model's coordinates are in.
 */
public record SanitizeRequest(String roomId, AgentAction action, Board board, CoordinateFrame frame)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("action", action.toJson())
        .put("board", board.toJson())
        .put("frame", frame.toJson());
  }

  /** Without a frame, the model's coordinates are the page's ({@link CoordinateFrame#atOrigin}). */
  public static SanitizeRequest fromJson(JsonObject json) {
    return new SanitizeRequest(
        MessageFields.string(json, "roomId", "SanitizeRequest"),
        AgentAction.fromJson(MessageFields.object(json, "action", "SanitizeRequest")),
        BoardSnapshot.fromJson(MessageFields.object(json, "board", "SanitizeRequest")).board(),
        CoordinateFrame.fromJson(json.getJsonObject("frame")));
  }
}
