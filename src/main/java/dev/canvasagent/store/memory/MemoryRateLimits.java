package dev.canvasagent.store.memory;

import dev.canvasagent.store.RateLimits;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rate limits in this process's memory: the embedded store is one node, so its counts are
 * everyone's. Same arithmetic as PostgreSQL's, under the store's one lock.
 */
final class MemoryRateLimits implements RateLimits {
  private final Object lock = new Object();

  /** Each (limit, key)'s full-again time, in nanoseconds since the epoch. */
  private final Map<List<String>, Long> fullAgainAt = new HashMap<>();

  @Override
  public Future<Optional<Wait>> take(List<Allowance> allowances, long nowNanos) {
    synchronized (lock) {
      List<Long> next = new ArrayList<>();
      for (int i = 0; i < allowances.size(); i++) {
        Allowance allowance = allowances.get(i);
        long from = Math.max(fullAgainAt.getOrDefault(id(allowance), nowNanos), nowNanos);
        long after = from + allowance.intervalNanos();
        if (after - nowNanos > allowance.burstNanos()) {
          return Future.succeededFuture(
              Optional.of(new Wait(i, after - allowance.burstNanos() - nowNanos)));
        }
        next.add(after);
      }
      for (int i = 0; i < allowances.size(); i++) {
        fullAgainAt.put(id(allowances.get(i)), next.get(i));
      }
      return Future.succeededFuture(Optional.empty());
    }
  }

  @Override
  public Future<Void> giveBack(List<Allowance> allowances, long nowNanos) {
    synchronized (lock) {
      for (Allowance allowance : allowances) {
        // Whole again, the key is as good as never asked: it is not kept.
        fullAgainAt.computeIfPresent(
            id(allowance),
            (id, at) ->
                at - allowance.intervalNanos() <= nowNanos ? null : at - allowance.intervalNanos());
      }
      return Future.succeededFuture();
    }
  }

  /** Whether a key is kept for {@code limit} and {@code key}: for the contract's tests. */
  boolean keeps(String limit, String key) {
    synchronized (lock) {
      return fullAgainAt.containsKey(List.of(limit, key));
    }
  }

  @Override
  public Future<Integer> forgetRefilled(long nowNanos) {
    synchronized (lock) {
      int before = fullAgainAt.size();
      fullAgainAt.values().removeIf(at -> at <= nowNanos);
      return Future.succeededFuture(before - fullAgainAt.size());
    }
  }

  private static List<String> id(Allowance allowance) {
    return List.of(allowance.limit(), allowance.key());
  }
}
