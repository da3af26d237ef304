package dev.canvasagent.bridge;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** A successful answer: the status and a JSON body ({@link HttpErrors} writes the refusals). */
final class JsonResponse {
  private JsonResponse() {}

  static void send(RoutingContext ctx, int status, JsonObject body) {
    ctx.response()
        .setStatusCode(status)
        .putHeader("content-type", "application/json; charset=utf-8")
        .end(body.encode());
  }
}
