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
    return result(future, DEFAULT_SECONDS);
  }

  /** As {@link #result(Future)}, for a long batch (a thousand races, say) on a busy machine. */
  public static <T> T result(Future<T> future, long seconds) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("no result within " + seconds + " s", e);
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
