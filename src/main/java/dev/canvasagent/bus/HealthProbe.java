package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The health routes ask a verticle how it is ({@code health.<name>}). {@code livenessOnly}: only
 * whether its event loop answers at all ({@code /health/live}), so the answer is immediate and
 * touches nothing else (no store, no counters); otherwise its whole report.
 */
public record HealthProbe(boolean livenessOnly) implements BusMessage {
  /** The whole report's probe ({@code /health}, {@code /health/ready}). */
  public HealthProbe() {
    this(false);
  }

  @Override
  public JsonObject toJson() {
    return livenessOnly ? new JsonObject().put("livenessOnly", true) : new JsonObject();
  }

  public static HealthProbe fromJson(JsonObject json) {
    return new HealthProbe(Boolean.TRUE.equals(json.getValue("livenessOnly")));
  }
}
