package dev.canvasagent.support;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Supplier;

/**
 * For server-side effects that publish no event a test could wait on (a closed connection noticed by
 * the server): re-checks on a Vert.x timer, a bounded number of times.
 */
public final class Eventually {
  static final int ATTEMPTS = 100;
  static final long INTERVAL_MS = 50;

  private Eventually() {}

  public static Future<Void> holds(Vertx vertx, Supplier<Future<Boolean>> check) {
    Promise<Void> holds = Promise.promise();
    attempt(vertx, check, ATTEMPTS, holds);
    return holds.future();
  }

  private static void attempt(
      Vertx vertx, Supplier<Future<Boolean>> check, int remaining, Promise<Void> holds) {
    check
        .get()
        .onComplete(
            result -> {
              if (result.succeeded() && result.result()) {
                holds.complete();
              } else if (remaining <= 1) {
                holds.fail("the condition did not hold after " + ATTEMPTS + " checks");
              } else {
                vertx.setTimer(INTERVAL_MS, id -> attempt(vertx, check, remaining - 1, holds));
              }
            });
  }
}
