package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One action's refused commits: backoff ceilings, and the end of the run's patience. */
@ExtendWith(VertxExtension.class)
class CommitAttemptsTest {
  static final Failure CONFLICT =
      new Failure(FailureCode.REVISION_CONFLICT, "room r is at revision 5, not 4");

  @Test
  void thePauseCeilingDoublesFromFiveMillisecondsUpTo80() {
    assertEquals(
        java.util.List.of(5L, 10L, 20L, 40L, 80L, 80L, 80L),
        IntStream.rangeClosed(1, 7).mapToObj(CommitAttempts::ceilingMs).toList());
    assertEquals(80L, CommitAttempts.ceilingMs(Integer.MAX_VALUE));
  }

  @Test
  void aRefusedCommitIsTriedAgainWithinThePatience(Vertx vertx) {
    CommitAttempts attempts = new CommitAttempts(vertx, 60_000, new RunMetrics()::commitConflict);
    for (int n = 1; n <= 5; n++) {
      Await.result(attempts.refused(CONFLICT));
      assertEquals(n, attempts.refused());
      assertEquals(n + 1, attempts.attempt());
    }
  }

  @Test
  void onceThePatienceIsSpentTheRefusalEndsTheRunWithRevisionConflict(Vertx vertx) {
    CommitAttempts attempts = new CommitAttempts(vertx, 0, new RunMetrics()::commitConflict);
    Failure failure = (Failure) Await.failure(attempts.refused(CONFLICT));
    assertEquals(FailureCode.REVISION_CONFLICT, failure.code());
    assertTrue(
        failure.getMessage().startsWith("could not commit for 0 ms: 1 attempts"),
        failure.getMessage());
    assertTrue(
        failure.getMessage().endsWith("the last: room r is at revision 5, not 4"),
        failure.getMessage());
    assertTrue(FailureCode.REVISION_CONFLICT.retryable());
  }
}
