package dev.canvasagent.bridge;

import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The {@code Idempotency-Key} header of {@code POST /api/canvas-agent/run}, {@code POST /api/sessions}
 * and {@code POST /api/rooms/{roomId}/transcript}: a client sets it so that a retried write is done
 * once. The key is its caller's (the grant's subject) and covers the request it comes with: the
 * consumer that writes answers a retry with the first result, and the same key with another request
 * with IDEMPOTENCY_KEY_REUSED.
 */
final class IdempotencyKeyHeader {
  static final String NAME = "Idempotency-Key";
  static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

  private IdempotencyKeyHeader() {}

  /**
   * {@code ask} (every field the key covers: the body and the path's ids) with the request's key: no
   * header → unchanged; a valid one → under {@value IdempotencyKey#FIELD}; otherwise null after answering 400.
   */
  static JsonObject addTo(RoutingContext ctx, JsonObject ask) {
    List<String> keys = ctx.request().headers().getAll(NAME);
    if (keys.isEmpty()) {
      return ask;
    }
    if (keys.size() > 1 || !KEY.matcher(keys.get(0)).matches()) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_REQUEST, NAME + " must be one value matching " + KEY.pattern());
      return null;
    }
    return IdempotencyKey.of(EdgeAccess.grant(ctx).subject(), keys.get(0), ask).addTo(ask);
  }

  /**
   * Runs {@code then} with the request's key for {@code request} (every field the key covers: the body
   * and the path's ids), or with null when there is no header; a malformed one is answered 400 and
   * {@code then} does not run.
   */
  static void withKey(RoutingContext ctx, JsonObject request, Consumer<IdempotencyKey> then) {
    List<String> keys = ctx.request().headers().getAll(NAME);
    if (keys.isEmpty()) {
      then.accept(null);
    } else if (keys.size() > 1 || !KEY.matcher(keys.get(0)).matches()) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_REQUEST, NAME + " must be one value matching " + KEY.pattern());
    } else {
      then.accept(IdempotencyKey.of(EdgeAccess.grant(ctx).subject(), keys.get(0), request));
    }
  }
}
