package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The patch engine's answer to a {@link BoardChangeRequest} it took: the revision the board is at
 * after it. {@code changed} is false for a diff that would change nothing on the board at its base
 * revision (every record it puts is already there as it is): then nothing was committed or published,
 * and {@code revision} is that base revision.
 */
public record CommittedRevision(long revision, boolean changed) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("revision", revision).put("changed", changed);
  }

  public static CommittedRevision fromJson(JsonObject json) {
    return new CommittedRevision(
        MessageFields.number(json, "revision", "CommittedRevision"),
        MessageFields.bool(json, "changed", "CommittedRevision"));
  }
}
