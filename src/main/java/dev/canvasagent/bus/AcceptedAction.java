package dev.canvasagent.bus;

import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonObject;

/**
 * The sanitizer's answer to a {@link SanitizeRequest} it accepts: the action with its sanitized
 * params, the name of its verb's kind (the catalog's {@code VerbKind}: {@code BOARD}, {@code CHAT},
 * {@code CLIENT}, {@code AGENT}), and the record diff it makes (empty for a verb that changes no
 * record). A refused action is a failure instead: ACTION_INVALID, SHAPE_NOT_FOUND or DUPLICATE_CREATE.
 */
public record AcceptedAction(AgentAction action, String kind, RecordDiff diff)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("action", action.toJson())
        .put("kind", kind)
        .put("diff", diff.toJson());
  }

  public static AcceptedAction fromJson(JsonObject json) {
    return new AcceptedAction(
        AgentAction.fromJson(MessageFields.object(json, "action", "AcceptedAction")),
        MessageFields.string(json, "kind", "AcceptedAction"),
        RecordDiff.fromJson(MessageFields.object(json, "diff", "AcceptedAction")));
  }
}
