package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A person's instruction to the document agent ({@code doc.agent}): start a tool loop on {@code docId}
 * for {@code requester}, with {@code model} (null: the default) in agent session {@code sessionId}
 * (null: the document's own).
 */
public record DocumentAgentRequest(
    String docId, String instruction, Actor requester, String model, String sessionId)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("docId", docId).put("instruction", instruction);
    if (model != null) {
      json.put("model", model);
    }
    if (sessionId != null) {
      json.put("sessionId", sessionId);
    }
    return requester.into(json);
  }

  public static DocumentAgentRequest fromJson(JsonObject json) {
    String message = "an instruction to the document agent";
    return new DocumentAgentRequest(
        MessageFields.string(json, "docId", message),
        MessageFields.string(json, "instruction", message),
        Actor.from(json),
        MessageFields.optionalString(json, "model", message),
        MessageFields.optionalString(json, "sessionId", message));
  }
}
