package dev.canvasagent.store;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The counts behind the cost-bearing limits (runs a minute per client and per room), kept where
 * every node sharing the store counts against the same allowance. Each allowance is a token bucket
 * of {@code capacity} refilled evenly over {@code period}, kept as one number per key: the time at
 * which its bucket is full again (the generic cell rate algorithm, GCRA), so a take is one
 * conditional upsert of one row, and a key whose time has passed is as good as new and may be
 * forgotten. Times are the caller's clock in nanoseconds since the epoch.
 */
public interface RateLimits {
  /**
   * Takes one from each allowance, all or none: empty when taken, else the first allowance (by its
   * index in {@code allowances}) that has nothing left and how long until it has one again.
   */
  Future<Optional<Wait>> take(List<Allowance> allowances, long nowNanos);

  /**
   * Gives back one to each allowance, for something taken that then did not happen; an allowance
   * whole again by {@code nowNanos} keeps no key, as if it had never been asked.
   */
  Future<Void> giveBack(List<Allowance> allowances, long nowNanos);

  /** Forgets every key whose allowance has refilled by {@code nowNanos}; answers how many. */
  Future<Integer> forgetRefilled(long nowNanos);

  /** {@code limit}: the limit's name (e.g. its setting); {@code key}: whom it counts (a client, a room). */
  record Allowance(String limit, String key, long capacity, Duration period) {
    public Allowance {
      if (capacity < 1 || period.isNegative() || period.isZero()) {
        throw new IllegalArgumentException(
            "an allowance needs a capacity of at least 1 and a positive period");
      }
    }

    /** Nanoseconds for one to come back: the bucket refills evenly. */
    public long intervalNanos() {
      return Math.max(1, period.toNanos() / capacity);
    }

    /** How far ahead of now a key's full-again time may be: a whole allowance's worth. */
    public long burstNanos() {
      return intervalNanos() * capacity;
    }
  }

  /** The allowance at {@code index} has nothing left for {@code nanos} more. */
  record Wait(int index, long nanos) {}
}
