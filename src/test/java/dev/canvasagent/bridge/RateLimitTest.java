package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The keyed token buckets behind every edge limit, on a clock the test moves. */
class RateLimitTest {
  /** Time stands still until the test moves it. */
  static final class ManualClock implements TimeMeter {
    long nanos;

    @Override
    public long currentTimeNanos() {
      return nanos;
    }

    @Override
    public boolean isWallClockBased() {
      return false;
    }

    void advance(Duration by) {
      nanos += by.toNanos();
    }
  }

  final ManualClock clock = new ManualClock();
  final RateLimit runs =
      new RateLimit(
          "runs_per_minute",
          "runs a minute from this client (CANVAS_AGENT_RUNS_PER_MINUTE)",
          3,
          Duration.ofMinutes(1),
          2,
          clock);

  @Test
  void aKeyGetsItsAllowanceThenWaitsForTheRefill() {
    for (int i = 0; i < 3; i++) {
      assertEquals(Optional.empty(), runs.take("alice", 1), "run " + i);
    }
    RateLimit.Over over = runs.take("alice", 1).orElseThrow();
    assertEquals(20, over.retryAfterSeconds(), "one run refills every 20 s");
    assertEquals(
        "more than 3 runs a minute from this client (CANVAS_AGENT_RUNS_PER_MINUTE); try again in 20 s",
        over.message());
    assertEquals(Optional.empty(), runs.take("bob", 1), "another key has its own allowance");

    clock.advance(Duration.ofMillis(19_001));
    assertEquals(
        1,
        runs.take("alice", 1).orElseThrow().retryAfterSeconds(),
        "less than a second to go is still 1 s");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(Optional.empty(), runs.take("alice", 1));
  }

  @Test
  void aCheckTakesNothingAndWhatIsGivenBackCountsAgain() {
    runs.take("alice", 3);
    assertTrue(runs.check("alice", 1).isPresent());
    runs.giveBack("alice", 1);
    assertEquals(Optional.empty(), runs.check("alice", 1));
    assertEquals(Optional.empty(), runs.check("alice", 1), "checking twice takes nothing");
    assertEquals(Optional.empty(), runs.take("alice", 1));
    assertTrue(runs.take("alice", 1).isPresent());
  }

  @Test
  void moreThanTheWholeAllowanceIsRefusedAndTakesNothing() {
    RateLimit.Over over = runs.take("alice", 4).orElseThrow();
    assertEquals(60, over.retryAfterSeconds());
    assertTrue(
        over.message().startsWith("4 is more than the whole allowance of 3 runs a minute"),
        over.message());
    assertEquals(Optional.empty(), runs.take("alice", 3));
  }

  @Test
  void keysWhoseAllowanceRefilledAreForgottenAndTheTableIsBounded() {
    runs.take("alice", 1);
    runs.take("bob", 1);
    assertEquals(2, runs.keys());
    RateLimit.Over full = runs.take("carol", 1).orElseThrow();
    assertTrue(full.message().contains("already tracks 2 others"), full.message());
    assertEquals(2, runs.keys(), "a refused key is not added");

    clock.advance(Duration.ofSeconds(20));
    runs.take("bob", 1);
    assertEquals(1, runs.evictIdle(), "alice refilled and is forgotten; bob is not");
    assertEquals(Optional.empty(), runs.take("carol", 1), "room for a new key again");
    clock.advance(Duration.ofMinutes(1));
    assertEquals(
        Optional.empty(), runs.take("dave", 1), "a full table evicts idle keys before refusing");
    assertEquals(1, runs.keys());
  }
}
