package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * One board action from outside a run ({@code runner.act}): an MCP client's call of a board verb in
 * {@code roomId}, in the scheduler session {@code sessionId} that the caller keeps for it in that room
 * (the envelope goes out with that session's id and next seq). {@code action.id} is the caller's,
 * unique ({@code mcp:<uuid>}); {@code action.params} are the verb's, as its JSON Schema has them.
 * {@code author} is who the commit is signed by ({@link Actor#name()}). On the bus: {@code roomId},
 * {@code sessionId}, {@code action}, and the actor's {@code subject} and {@code agentSession}.
 */
public record OutsideAction(String roomId, String sessionId, AgentAction action, Actor author)
    implements BusMessage {
  private static final String MESSAGE = "an outside action";

  @Override
  public JsonObject toJson() {
    return author.into(
        new JsonObject()
            .put("roomId", roomId)
            .put("sessionId", sessionId)
            .put("action", action.toJson()));
  }

  /** INVALID_REQUEST when the room, the session, the action's id or its verb is missing or blank. */
  public static OutsideAction fromJson(JsonObject json) {
    JsonObject action = MessageFields.object(json, "action", MESSAGE);
    String actionMessage = "an outside action's action";
    Object params = action.getValue("params");
    if (params != null && !(params instanceof JsonObject)) {
      throw new Failure(FailureCode.INVALID_REQUEST, actionMessage + "'s params must be an object");
    }
    return new OutsideAction(
        MessageFields.nonBlank(json, "roomId", MESSAGE),
        MessageFields.nonBlank(json, "sessionId", MESSAGE),
        new AgentAction(
            MessageFields.nonBlank(action, "id", actionMessage),
            MessageFields.nonBlank(action, "name", actionMessage),
            (JsonObject) params),
        Actor.from(json));
  }
}
