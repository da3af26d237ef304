package dev.canvasagent.support;

import io.vertx.core.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits on the test thread (never an event loop) for a future, failing the test after a bound. */
public final class Await {
  public static final long DEFAULT_SECONDS = 20;

  private Await() {}

  public static <T> T result(Future<T> future) {
    try {
      return future
          .toCompletionStage()
          .toCompletableFuture()
          .get(DEFAULT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("no result within " + DEFAULT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The failure of a future that must fail. */
  public static Throwable failure(Future<?> future) {
    try {
      result(future);
    } catch (RuntimeException failed) {
      return failed;
    }
    throw new AssertionError("expected a failure");
  }
}
