package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The node is shutting down ({@code scheduler.drain}): take no new run, let the running ones end
 * within {@code graceMs}, then end the rest.
 */
public record DrainRequest(long graceMs) implements BusMessage {
  public DrainRequest {
    if (graceMs < 0) {
      throw new Failure(FailureCode.INVALID_REQUEST, "DrainRequest: graceMs must not be negative");
    }
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("graceMs", graceMs);
  }

  public static DrainRequest fromJson(JsonObject json) {
    return new DrainRequest(MessageFields.number(json, "graceMs", "DrainRequest"));
  }
}
