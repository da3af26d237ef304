package dev.canvasagent.bench;

import io.vertx.core.json.JsonObject;
import java.util.Locale;

/**
 * canvas-agent's fan-out against its raw floor, as issue 18 states the goal: deliveries per second
 * as a share of the floor's (goal: at least 50%), and p99 delivery latency as a multiple of the
 * floor's (goal: at most 2×, read at a rate both sustained, which {@code sustainedByBoth} says).
 */
final class FloorComparison {
  static final double DELIVERIES_GOAL_PERCENT = 50;
  static final double P99_GOAL_RATIO = 2;

  /** Both sustained the rate when each committed ≥ 99% of it and delivered ≥ 99.9% of what it committed. */
  private static final double SUSTAINED_RATE_SHARE = 0.99;

  private static final double SUSTAINED_DELIVERED_PERCENT = 99.9;

  private FloorComparison() {}

  static JsonObject of(JsonObject canvasAgent, JsonObject floor) {
    double perSecond = deliveries(canvasAgent).getLong("perSecond");
    double floorPerSecond = deliveries(floor).getLong("perSecond");
    double p99 = deliveries(canvasAgent).getJsonObject("latencyMs").getDouble("p99", Double.NaN);
    double floorP99 = deliveries(floor).getJsonObject("latencyMs").getDouble("p99", Double.NaN);
    double deliveriesPercent = floorPerSecond == 0 ? Double.NaN : 100 * perSecond / floorPerSecond;
    double p99Ratio = floorP99 > 0 ? p99 / floorP99 : Double.NaN;
    boolean sustained = sustained(canvasAgent) && sustained(floor);
    return new JsonObject()
        .put("deliveriesPerSecondPercent", Percentiles.round(deliveriesPercent))
        .put("deliveriesGoalMet", deliveriesPercent >= DELIVERIES_GOAL_PERCENT)
        .put("p99Ratio", Percentiles.round(p99Ratio))
        .put("sustainedByBoth", sustained)
        .put("p99GoalMet", sustained && p99Ratio <= P99_GOAL_RATIO)
        .put(
            "bytesPerEvent",
            new JsonObject()
                .put("canvasAgent", deliveries(canvasAgent).getLong("bytesPerEvent"))
                .put("rawFloor", deliveries(floor).getLong("bytesPerEvent")));
  }

  private static JsonObject deliveries(JsonObject report) {
    return report.getJsonObject("deliveries");
  }

  private static boolean sustained(JsonObject report) {
    JsonObject changes = report.getJsonObject("changes");
    return changes.getDouble("achievedRate")
            >= SUSTAINED_RATE_SHARE * changes.getInteger("targetRate")
        && deliveries(report).getDouble("receivedPercent") >= SUSTAINED_DELIVERED_PERCENT;
  }

  static String summary(JsonObject comparison) {
    return String.format(
        Locale.ROOT,
        "of floor    deliveries/s %.1f%% (goal ≥ %.0f%%: %s); p99 %.2f× the floor's (goal ≤ %.0f× at a rate both sustain: %s); bytes per event %d vs %d",
        comparison.getDouble("deliveriesPerSecondPercent"),
        DELIVERIES_GOAL_PERCENT,
        comparison.getBoolean("deliveriesGoalMet") ? "met" : "not met",
        comparison.getDouble("p99Ratio"),
        P99_GOAL_RATIO,
        comparison.getBoolean("sustainedByBoth")
            ? (comparison.getBoolean("p99GoalMet") ? "met" : "not met")
            : "rate not sustained by both, not judged",
        comparison.getJsonObject("bytesPerEvent").getLong("canvasAgent"),
        comparison.getJsonObject("bytesPerEvent").getLong("rawFloor"));
  }
}
