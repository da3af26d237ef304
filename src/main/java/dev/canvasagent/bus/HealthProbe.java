package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** The health route asks a verticle how it is ({@code health.<name>}); the ask carries nothing. */
public record HealthProbe() implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject();
  }

  public static HealthProbe fromJson(JsonObject json) {
    return new HealthProbe();
  }
}
