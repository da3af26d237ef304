package dev.canvasagent.bus;

import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonObject;

/**
 * The {@code canvas:change} payload: a person's change as the patch engine committed it, the revision
 * it made and who made it, for every client of the room to apply.
 */
public record CanvasChange(long revision, RecordDiff diff, String author) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("type", RoomTopic.CANVAS_CHANGE.wireName())
        .put("revision", revision)
        .put("diff", diff.toJson())
        .put("author", author);
  }

  public static CanvasChange fromJson(JsonObject json) {
    String message = "a canvas:change";
    return new CanvasChange(
        MessageFields.number(json, "revision", message),
        RecordDiff.fromJson(MessageFields.object(json, "diff", message)),
        MessageFields.string(json, "author", message));
  }
}
