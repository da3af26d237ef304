package dev.canvasagent.bench;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;

/** Nearest-rank percentiles of latencies in microseconds, reported in milliseconds. */
final class Percentiles {
  private final int[] sorted;

  /** Takes ownership of {@code micros} (sorts it in place). */
  Percentiles(int[] micros) {
    this.sorted = micros;
    Arrays.sort(sorted);
  }

  long count() {
    return sorted.length;
  }

  /** The nearest-rank percentile in milliseconds, or NaN when there is no sample. */
  double millis(double percentile) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1000.0;
  }

  double maxMillis() {
    return millis(100);
  }

  JsonObject toJson() {
    JsonObject json = new JsonObject().put("count", count());
    if (sorted.length > 0) {
      json.put("p50", round(millis(50)))
          .put("p90", round(millis(90)))
          .put("p99", round(millis(99)))
          .put("max", round(maxMillis()));
    }
    return json;
  }

  static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
