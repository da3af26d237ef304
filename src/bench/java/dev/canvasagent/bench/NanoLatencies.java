package dev.canvasagent.bench;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;

/** Nearest-rank percentiles of per-call times taken in nanoseconds, reported in microseconds. */
final class NanoLatencies {
  private final long[] sorted;

  /** Takes ownership of {@code nanos} (sorts it in place). */
  NanoLatencies(long[] nanos) {
    this.sorted = nanos;
    Arrays.sort(sorted);
  }

  double micros(double percentile) {
    int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1000.0;
  }

  double meanMicros() {
    return Arrays.stream(sorted).average().orElse(Double.NaN) / 1000.0;
  }

  JsonObject toJson() {
    return new JsonObject()
        .put("count", sorted.length)
        .put("p50", round(micros(50)))
        .put("p90", round(micros(90)))
        .put("p99", round(micros(99)))
        .put("max", round(micros(100)))
        .put("mean", round(meanMicros()))
        .put("unit", "µs");
  }

  private static double round(double value) {
    return Math.round(value * 10) / 10.0;
  }
}
