package dev.canvasagent.bridge;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** The one place failure codes become HTTP statuses and {@code {ok:false, error:{code, message}}} bodies. */
final class HttpErrors {
  private HttpErrors() {}

  static int status(FailureCode code) {
    return switch (code) {
      case INVALID_JSON, INVALID_REQUEST, UNKNOWN_MODEL, ACTION_INVALID, DUPLICATE_CREATE -> 400;
      case SHAPE_NOT_FOUND, INVALID_RECORD, MODEL_NOT_CONFIGURED, PATCH_REJECTED, IDEMPOTENCY_KEY_REUSED -> 422;
      case NOT_FOUND, SESSION_NOT_FOUND -> 404;
      case METHOD_NOT_ALLOWED -> 405;
      case REQUEST_TIMEOUT -> 408;
      case SESSION_ROOM_MISMATCH, REVISION_CONFLICT, SESSION_BUSY, LOCK_NOT_AVAILABLE, LOCK_NOT_OWNED, LEASE_EXPIRED,
          STALE_EPOCH -> 409;
      case BODY_TOO_LARGE -> 413;
      case UNSUPPORTED_MEDIA_TYPE -> 415;
      case QUEUE_FULL, RATE_LIMITED -> 429;
      case UNAUTHENTICATED, TOKEN_EXPIRED -> 401;
      case FORBIDDEN, ORIGIN_NOT_ALLOWED, HOST_NOT_ALLOWED -> 403;
      case INTERNAL -> 500;
      case NO_HOST, STORE_UNAVAILABLE -> 503;
      case SCREENSHOT_TIMEOUT, TIMEOUT -> 504;
    };
  }

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
    return ctx.response()
        .setStatusCode(status(code))
        .putHeader("content-type", "application/json; charset=utf-8")
        .end(extra.copy()
            .put("ok", false)
            .put("error", new JsonObject().put("code", code.name()).put("message", message))
            .encode());
  }

  static void send(RoutingContext ctx, Throwable error) {
    Failure failure = Failure.of(error);
    send(ctx, failure.code(), failure.getMessage());
  }
}
