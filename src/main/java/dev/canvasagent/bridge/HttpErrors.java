package dev.canvasagent.bridge;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/** The one place a failure becomes an HTTP answer: its code's status and a {@code {ok:false, error:{code, message}}} body. */
final class HttpErrors {
  static final long STARTING_RETRY_AFTER_SECONDS = 1;
  static final long SHUTTING_DOWN_RETRY_AFTER_SECONDS = 5;

  private HttpErrors() {}

  /** Completes once the answer is written (or, when an answer had already begun, once the stream is reset). */
  static Future<Void> send(RoutingContext ctx, FailureCode code, String message) {
    return send(ctx, code, message, new JsonObject());
  }

  /** With {@code extra} fields beside {@code ok} and {@code error}, e.g. the current revision of a conflict. */
  static Future<Void> send(RoutingContext ctx, FailureCode code, String message, JsonObject extra) {
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return Future.succeededFuture();
    }
    retryAfterSeconds(code)
        .ifPresent(
            seconds -> ctx.response().putHeader(EdgeLimits.RETRY_AFTER, String.valueOf(seconds)));
    return ctx.response()
        .setStatusCode(code.httpStatus())
        .putHeader("content-type", "application/json; charset=utf-8")
        .end(
            extra
                .copy()
                .put("ok", false)
                .put("error", new JsonObject().put("code", code.name()).put("message", message))
                .encode());
  }

  /**
   * The wait a refusal names by itself: a node that is starting is ready in a moment; one that is
   * shutting down is out of its load balancer's rotation within a probe period or two, and a retry
   * then reaches another node.
   */
  static Optional<Long> retryAfterSeconds(FailureCode code) {
    return switch (code) {
      case STARTING -> Optional.of(STARTING_RETRY_AFTER_SECONDS);
      case SHUTTING_DOWN -> Optional.of(SHUTTING_DOWN_RETRY_AFTER_SECONDS);
      default -> Optional.empty();
    };
  }

  static void send(RoutingContext ctx, Throwable error) {
    Failure failure = Failure.of(error);
    send(ctx, failure.code(), failure.getMessage());
  }
}
