package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A person's run request handed to the node that owns its session ({@code scheduler.node.<id>.submit}):
 * the request as the accepting node took it, and the session it belongs to — the one it names, or the
 * id the accepting node chose for the new session it asks for (so that both nodes route it alike).
 */
public record OwnedRunSubmit(RunSubmit submit, String sessionId) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("submit", submit.toJson()).put("sessionId", sessionId);
  }

  /** INVALID_REQUEST without a {@code submit} or {@code sessionId}. */
  public static OwnedRunSubmit fromJson(JsonObject json) {
    String sessionId = MessageFields.nonBlank(json, "sessionId", "OwnedRunSubmit");
    if (!(json.getValue("submit") instanceof JsonObject submit)) {
      throw new Failure(FailureCode.INVALID_REQUEST, "OwnedRunSubmit needs a submit object");
    }
    return new OwnedRunSubmit(RunSubmit.fromJson(submit), sessionId);
  }
}
