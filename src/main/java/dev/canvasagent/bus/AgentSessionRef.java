package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A document-agent session by its id, as a delegated edit names it ({@code canvas_session_id}):
 * {@code doc.agent.session_document} answers the {@link DocumentRef} it works on.
 */
public record AgentSessionRef(String canvasSessionId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("canvas_session_id", canvasSessionId);
  }

  public static AgentSessionRef fromJson(JsonObject json) {
    return new AgentSessionRef(
        MessageFields.string(json, "canvas_session_id", "a document-agent session reference"));
  }
}
