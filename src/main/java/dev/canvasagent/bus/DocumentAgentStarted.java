package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A document-agent loop {@code doc.agent} started, once it holds the lease: its run, document, session
 * and room, the model, the lease's holder and epoch, and the revision it started from. Never the lease
 * id, which the loop keeps. On the wire {@code state} is always {@code running}.
 */
public record DocumentAgentStarted(
    String runId,
    String docId,
    String sessionId,
    String roomId,
    String model,
    String holder,
    long canvasEpoch,
    String revisionId)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("runId", runId)
        .put("docId", docId)
        .put("sessionId", sessionId)
        .put("roomId", roomId)
        .put("model", model)
        .put("holder", holder)
        .put("canvasEpoch", canvasEpoch)
        .put("revisionId", revisionId)
        .put("state", "running");
  }

  public static DocumentAgentStarted fromJson(JsonObject json) {
    String message = "a started document agent";
    return new DocumentAgentStarted(
        MessageFields.string(json, "runId", message),
        MessageFields.string(json, "docId", message),
        MessageFields.string(json, "sessionId", message),
        MessageFields.string(json, "roomId", message),
        MessageFields.string(json, "model", message),
        MessageFields.string(json, "holder", message),
        MessageFields.number(json, "canvasEpoch", message),
        MessageFields.string(json, "revisionId", message));
  }
}
