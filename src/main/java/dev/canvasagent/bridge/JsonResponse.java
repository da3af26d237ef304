package dev.canvasagent.bridge;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Function;

/** A successful answer: the status and a JSON body ({@link HttpErrors} writes the refusals). */
final class JsonResponse {
  private JsonResponse() {}

  static void send(RoutingContext ctx, int status, JsonObject body) {
    ctx.response()
        .setStatusCode(status)
        .putHeader("content-type", "application/json; charset=utf-8")
        .end(body.encode());
  }

  /**
   * Answers {@code status} with {@code ok: true} and the body {@code reply} is shown as, or the
   * refusal it failed with ({@link HttpErrors}).
   */
  static <T> void answer(
      RoutingContext ctx, int status, Future<T> reply, Function<T, JsonObject> body) {
    reply
        .onSuccess(
            result ->
                send(ctx, status, new JsonObject().put("ok", true).mergeIn(body.apply(result))))
        .onFailure(error -> HttpErrors.send(ctx, error));
  }
}
