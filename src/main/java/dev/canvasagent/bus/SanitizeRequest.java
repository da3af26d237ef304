package dev.canvasagent.bus;

import dev.canvasagent.board.CoordinateFrame;
import io.vertx.core.json.JsonObject;

/**
 * One action for the sanitizer to judge ({@code sanitizer.sanitize}): the action as the model wrote it,
 * the revision of the room's board it is judged against (the board itself is read on the sanitizer's
 * node, never sent), the frame the model's coordinates are in, and the requester's view (page space,
 * null when unknown): where work the action does not place goes.
 */
public record SanitizeRequest(
    String roomId, AgentAction action, long revision, CoordinateFrame frame, Viewport view)
    implements BusMessage {
  public SanitizeRequest(String roomId, AgentAction action, long revision, CoordinateFrame frame) {
    this(roomId, action, revision, frame, null);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("roomId", roomId)
            .put("action", action.toJson())
            .put("revision", revision)
            .put("frame", frame.toJson());
    if (view != null) {
      json.put("view", view.toJson());
    }
    return json;
  }

  /** Without a frame, the model's coordinates are the page's ({@link CoordinateFrame#atOrigin}). */
  public static SanitizeRequest fromJson(JsonObject json) {
    return new SanitizeRequest(
        MessageFields.string(json, "roomId", "SanitizeRequest"),
        AgentAction.fromJson(MessageFields.object(json, "action", "SanitizeRequest")),
        MessageFields.number(json, "revision", "SanitizeRequest"),
        CoordinateFrame.fromJson(json.getJsonObject("frame")),
        Viewport.checked(json.getValue("view")));
  }
}
