package dev.canvasagent.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Repeats one operation (parsing one whole answer) for a warm-up, then for several measured rounds of
 * a fixed length, and reports the answers per second of each round and their spread. The operation
 * returns a number that is summed into {@link #sink} so that the JIT cannot drop the work.
 */
final class Throughput {
  /** The answers per second of each measured round. */
  record Result(double[] perSecond) {
    double mean() {
      double sum = 0;
      for (double value : perSecond) {
        sum += value;
      }
      return sum / perSecond.length;
    }

    /** The sample standard deviation of the rounds. */
    double stdev() {
      double mean = mean();
      double squares = 0;
      for (double value : perSecond) {
        squares += (value - mean) * (value - mean);
      }
      return perSecond.length < 2 ? 0 : Math.sqrt(squares / (perSecond.length - 1));
    }

    double min() {
      double min = Double.MAX_VALUE;
      for (double value : perSecond) {
        min = Math.min(min, value);
      }
      return min;
    }

    double max() {
      double max = 0;
      for (double value : perSecond) {
        max = Math.max(max, value);
      }
      return max;
    }

    /** Per answer of {@code bytes} and {@code actions}: MB/s (10^6 bytes) and actions/s, mean ± stdev, min–max. */
    JsonObject toJson(long bytes, int actions) {
      JsonArray rounds = new JsonArray();
      for (double value : perSecond) {
        rounds.add(Math.round(value * 10) / 10.0);
      }
      return new JsonObject()
          .put("answersPerSecond", stats(1))
          .put("megabytesPerSecond", stats(bytes / 1e6))
          .put("actionsPerSecond", stats(actions))
          .put("microsPerAnswer", Percentiles.round(1e6 / mean()))
          .put("roundAnswersPerSecond", rounds);
    }

    private JsonObject stats(double scale) {
      return new JsonObject()
          .put("mean", Percentiles.round(mean() * scale))
          .put("stdev", Percentiles.round(stdev() * scale))
          .put("min", Percentiles.round(min() * scale))
          .put("max", Percentiles.round(max() * scale))
          .put("cvPercent", Percentiles.round(100 * stdev() / mean()));
    }
  }

  private final long warmupNanos;
  private final int rounds;
  private final long roundNanos;
  private long sink;

  Throughput(long warmupMillis, int rounds, long roundMillis) {
    this.warmupNanos = warmupMillis * 1_000_000;
    this.rounds = rounds;
    this.roundNanos = roundMillis * 1_000_000;
  }

  Result measure(LongSupplier operation) {
    repeatFor(operation, warmupNanos);
    List<Double> perSecond = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      perSecond.add(repeatFor(operation, roundNanos));
    }
    return new Result(perSecond.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** What every operation returned, summed: printed, so that no work is dead code. */
  long sink() {
    return sink;
  }

  /** Runs the operation until {@code nanos} have passed (checking the clock every time); operations per second. */
  private double repeatFor(LongSupplier operation, long nanos) {
    long start = System.nanoTime();
    long end = start + nanos;
    long count = 0;
    long now;
    do {
      sink += operation.getAsLong();
      count++;
      now = System.nanoTime();
    } while (now < end);
    return count / ((now - start) / 1e9);
  }
}
