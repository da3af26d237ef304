package dev.canvasagent.bridge;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** The one place a failure becomes an HTTP answer: its code's status and a {@code {ok:false, error:{code, message}}} body. */
final class HttpErrors {
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

  static void send(RoutingContext ctx, Throwable error) {
    Failure failure = Failure.of(error);
    send(ctx, failure.code(), failure.getMessage());
  }
}
