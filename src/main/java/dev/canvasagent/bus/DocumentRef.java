package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A document by its id: what {@code doc.get}, {@code doc.room} and {@code doc.preempt} are asked
 * about, and what {@code doc.agent.session_document} answers.
 */
public record DocumentRef(String docId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("docId", docId);
  }

  public static DocumentRef fromJson(JsonObject json) {
    return new DocumentRef(MessageFields.string(json, "docId", "a document reference"));
  }
}
