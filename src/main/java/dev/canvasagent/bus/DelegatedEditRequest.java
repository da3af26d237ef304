package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A primary agent's delegated edit ({@code doc.agent.edit_request}) for {@code requester}: {@code
 * canvasSessionId} names a document-agent session, or else a document (whose own session is then
 * used); {@code context} is what the primary agent knows that the edit needs, text or a JSON object
 * (null: none); {@code model} null for the default.
 */
public record DelegatedEditRequest(
    String canvasSessionId, String instruction, Actor requester, Object context, String model)
    implements BusMessage {
  public DelegatedEditRequest {
    if (context != null && !(context instanceof String) && !(context instanceof JsonObject)) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, "a delegated edit's context must be text or an object");
    }
  }

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject().put("canvas_session_id", canvasSessionId).put("instruction", instruction);
    if (context != null) {
      json.put("context", context);
    }
    if (model != null) {
      json.put("model", model);
    }
    return requester.into(json);
  }

  public static DelegatedEditRequest fromJson(JsonObject json) {
    String message = "a delegated edit";
    return new DelegatedEditRequest(
        MessageFields.string(json, "canvas_session_id", message),
        MessageFields.string(json, "instruction", message),
        Actor.from(json),
        json.getValue("context"),
        MessageFields.optionalString(json, "model", message));
  }
}
