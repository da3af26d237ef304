package dev.canvasagent.bridge;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.store.RateLimits;
import dev.canvasagent.store.RateLimits.Allowance;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cost-bearing limits: runs a minute per client ({@code CANVAS_AGENT_RUNS_PER_MINUTE}) and per
 * room ({@code CANVAS_AGENT_ROOM_RUNS_PER_MINUTE}), counted in the store so that every node sharing
 * it counts against one allowance (the memory store is one node, and counts in its memory). The same
 * token buckets as the node's other limits ({@link RateLimit}): each refills evenly over the minute,
 * and a refusal says the same, with the same wait.
 */
final class RunAllowance {
  private static final Logger LOG = LoggerFactory.getLogger(RunAllowance.class);
  private static final Duration MINUTE = Duration.ofMinutes(1);
  static final String CLIENT_LIMIT = "CANVAS_AGENT_RUNS_PER_MINUTE";
  static final String ROOM_LIMIT = "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE";

  /** The limits' names in metrics, in the order of {@link #DESCRIPTIONS}. */
  private static final List<String> LIMITS = List.of("runs_per_minute", "room_runs_per_minute");

  private static final List<String> DESCRIPTIONS =
      List.of(
          "runs a minute from this client (" + CLIENT_LIMIT + ")",
          "runs a minute in this room (" + ROOM_LIMIT + ")");

  private final RateLimits counts;
  private final long perClient;
  private final long perRoom;

  RunAllowance(RateLimits counts, long perClient, long perRoom) {
    this.counts = counts;
    this.perClient = perClient;
    this.perRoom = perRoom;
  }

  /** One run from {@code client} in {@code roomId} from both allowances, or neither and why. */
  Future<Optional<RateLimit.Over>> take(String client, String roomId) {
    List<Allowance> both = allowances(client, roomId);
    return counts
        .take(both, nowNanos())
        .recover(error -> Failure.storeFailed("count the run against its limits", error))
        .map(
            refused ->
                refused.map(
                    wait ->
                        RateLimit.over(
                            LIMITS.get(wait.index()),
                            both.get(wait.index()).capacity(),
                            DESCRIPTIONS.get(wait.index()),
                            wait.nanos())));
  }

  /**
   * Gives a run back to both allowances; completes when the store has it (a failure is logged and
   * the run stays counted, so it always succeeds).
   */
  Future<Void> giveBack(String client, String roomId) {
    return counts
        .giveBack(allowances(client, roomId), nowNanos())
        .recover(
            error -> {
              LOG.atWarn().setCause(error).log("edge.run_give_back_failed");
              return Future.succeededFuture();
            });
  }

  /** Forgets the keys whose allowance has refilled; a failure is logged and tried next time. */
  void forgetRefilled() {
    counts
        .forgetRefilled(nowNanos())
        .onFailure(error -> LOG.atWarn().setCause(error).log("edge.run_counts_sweep_failed"));
  }

  private List<Allowance> allowances(String client, String roomId) {
    return List.of(
        new Allowance(CLIENT_LIMIT, client, perClient, MINUTE),
        new Allowance(ROOM_LIMIT, roomId, perRoom, MINUTE));
  }

  /** The node's clock: every node's is assumed synchronized (NTP), as the docs say. */
  private static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
