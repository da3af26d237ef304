package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A verticle's answer to its health probe: whether it is healthy, and what it counts (clients, rooms,
 * commits, runs, queues, the patch engine's {@code store}; {@code error} for one that could not
 * report). The detail is each verticle's own and is shown as it is in {@code /health}'s details, so
 * the bus does not read it; on the bus {@code ok} is one more key of it.
 */
public record HealthReport(boolean ok, JsonObject detail) implements BusMessage {
  public HealthReport {
    detail = detail.copy();
    detail.remove("ok");
  }

  /** A verticle that could not report: unhealthy, saying why. */
  public static HealthReport failed(String error) {
    return new HealthReport(false, new JsonObject().put("error", error));
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("ok", ok).mergeIn(detail.copy());
  }

  /** A report without {@code ok}, or with another value than {@code true}, is unhealthy. */
  public static HealthReport fromJson(JsonObject json) {
    return new HealthReport(Boolean.TRUE.equals(json.getValue("ok")), json);
  }
}
