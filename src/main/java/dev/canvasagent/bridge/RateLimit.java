package dev.canvasagent.bridge;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.SynchronizationStrategy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One limit counted per key (a client, a room): a bucket4j token bucket per key, holding {@code
 * capacity} tokens that refill evenly over {@code period}. A key whose bucket has refilled is as good as
 * new, so {@link #evictIdle} forgets it; at most {@code maxKeys} keys are tracked at once, and a new
 * key beyond that is refused rather than let through uncounted. Not thread-safe: the bridge's event
 * loop is its only caller.
 */
final class RateLimit {
  /**
   * Over a limit: which ({@code limit}, the {@code limit} label of the refusal's meter, e.g. {@code
   * requests_per_second}), what to tell the client, and in how many whole seconds (at least 1) to try
   * again.
   */
  record Over(String limit, String message, long retryAfterSeconds) {}

  private final String limit;
  private final String description;
  private final long capacity;
  private final Duration period;
  private final int maxKeys;
  private final TimeMeter clock;
  private final Map<String, Bucket> buckets = new HashMap<>();

  /**
   * {@code limit} names it in metrics ({@code requests_per_second}); {@code description} completes
   * "more than {capacity} …" in refusals, e.g. "runs a minute from this client
   * (CANVAS_AGENT_RUNS_PER_MINUTE)".
   */
  RateLimit(
      String limit,
      String description,
      long capacity,
      Duration period,
      int maxKeys,
      TimeMeter clock) {
    this.limit = limit;
    this.description = description;
    this.capacity = capacity;
    this.period = period;
    this.maxKeys = maxKeys;
    this.clock = clock;
  }

  RateLimit(String limit, String description, long capacity, Duration period, int maxKeys) {
    this(limit, description, capacity, period, maxKeys, TimeMeter.SYSTEM_NANOTIME);
  }

  /** Takes {@code amount} from {@code key}'s allowance, or takes nothing and says why. */
  Optional<Over> take(String key, long amount) {
    Optional<Over> refused = refusedOutright(key, amount);
    if (refused.isPresent()) {
      return refused;
    }
    ConsumptionProbe probe = bucket(key).tryConsumeAndReturnRemaining(amount);
    return probe.isConsumed()
        ? Optional.empty()
        : Optional.of(over(probe.getNanosToWaitForRefill()));
  }

  /** Whether {@link #take} would succeed now, taking nothing: to take from two limits or neither. */
  Optional<Over> check(String key, long amount) {
    Optional<Over> refused = refusedOutright(key, amount);
    if (refused.isPresent()) {
      return refused;
    }
    Bucket bucket = buckets.get(key);
    if (bucket == null) {
      return Optional.empty();
    }
    EstimationProbe probe = bucket.estimateAbilityToConsume(amount);
    return probe.canBeConsumed()
        ? Optional.empty()
        : Optional.of(over(probe.getNanosToWaitForRefill()));
  }

  /** Gives back what a {@link #take} took for something that then did not happen. */
  void giveBack(String key, long amount) {
    Bucket bucket = buckets.get(key);
    if (bucket != null) {
      bucket.addTokens(amount);
    }
  }

  /** Forgets every key whose bucket has refilled; returns how many are left. */
  int evictIdle() {
    buckets.values().removeIf(bucket -> bucket.getAvailableTokens() >= capacity);
    return buckets.size();
  }

  int keys() {
    return buckets.size();
  }

  /** More than a whole allowance, or a new key when the table is full even after eviction. */
  private Optional<Over> refusedOutright(String key, long amount) {
    if (amount > capacity) {
      return Optional.of(
          new Over(
              limit,
              amount + " is more than the whole allowance of " + capacity + " " + description,
              Math.max(1, period.toSeconds())));
    }
    if (!buckets.containsKey(key) && buckets.size() >= maxKeys && evictIdle() >= maxKeys) {
      return Optional.of(
          new Over(
              limit,
              "this node already tracks "
                  + maxKeys
                  + " others under the limit of "
                  + capacity
                  + " "
                  + description,
              1));
    }
    return Optional.empty();
  }

  private Bucket bucket(String key) {
    return buckets.computeIfAbsent(
        key,
        absent ->
            Bucket.builder()
                .addLimit(limit -> limit.capacity(capacity).refillGreedy(capacity, period))
                .withCustomTimePrecision(clock)
                // One thread (the event loop) uses it.
                .withSynchronizationStrategy(SynchronizationStrategy.NONE)
                .build());
  }

  private Over over(long nanosToWait) {
    return over(limit, capacity, description, nanosToWait);
  }

  /** Over {@code capacity} {@code description} for {@code nanosToWait} more: whole seconds, at least 1. */
  static Over over(String limit, long capacity, String description, long nanosToWait) {
    long seconds = Math.max(1, (nanosToWait + 999_999_999L) / 1_000_000_000L);
    return new Over(
        limit,
        "more than " + capacity + " " + description + "; try again in " + seconds + " s",
        seconds);
  }
}
