package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** The patch engine's answer to a {@link BoardChangeRequest} it committed: the revision it stored. */
public record CommittedRevision(long revision) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("revision", revision);
  }

  public static CommittedRevision fromJson(JsonObject json) {
    return new CommittedRevision(MessageFields.number(json, "revision", "CommittedRevision"));
  }
}
