package dev.canvasagent.bridge;

import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.schema.JsonSchemaFile;
import dev.canvasagent.schema.NulCharacters;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.Locale;

/**
 * How every API route takes its JSON body. {@link #on} reads it whole, up to a limit, and refuses a
 * content type other than {@code application/json} (none is taken as JSON); the route's handler then
 * calls {@link #parse} with its schema. Parsing waits for the handler because a route checks its path's
 * ids and the caller's access first, and those refusals come before any about the body.
 */
final class JsonBody {
  private final BodyHandler reader;

  /** Null for the server's limit, whose 413 the router answers. */
  private final BodyTooLarge tooLarge;

  private JsonBody(long limitBytes, BodyTooLarge tooLarge) {
    this.reader = BodyHandler.create(false).setBodyLimit(limitBytes);
    this.tooLarge = tooLarge;
  }

  /** A body of at most the server's limit ({@code CANVAS_AGENT_BODY_LIMIT_BYTES}): the router answers a larger one. */
  static JsonBody withServerLimit(long limitBytes) {
    return new JsonBody(limitBytes, null);
  }

  /** A body of at most a route's own {@code limitBytes}; a larger one is answered as "{@code what} may not exceed …". */
  static JsonBody upTo(long limitBytes, String what) {
    return new JsonBody(limitBytes, BodyTooLarge.answer(what, limitBytes));
  }

  /** {@code route} with this body read before its handlers; returns it for them. */
  Route on(Route route) {
    route.handler(reader).handler(JsonBody::requireJsonMediaType);
    if (tooLarge != null) {
      route.failureHandler(tooLarge);
    }
    return route;
  }

  private static void requireJsonMediaType(RoutingContext ctx) {
    String contentType = ctx.request().getHeader("content-type");
    if (contentType != null
        && !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      HttpErrors.send(
          ctx,
          FailureCode.UNSUPPORTED_MEDIA_TYPE,
          "send the body as application/json, not " + contentType);
      return;
    }
    ctx.next();
  }

  /**
   * The body as a JSON object that passes {@code schema}, or null after answering 400. Every body the
   * API takes is read here, so this is where a NUL in any text field is refused, naming the field:
   * PostgreSQL cannot store it, and would answer with a driver error instead.
   */
  static JsonObject parse(RoutingContext ctx, JsonSchemaFile schema) {
    JsonObject request;
    try {
      Object parsed = ctx.body().buffer() == null ? null : ctx.body().buffer().toJsonValue();
      if (!(parsed instanceof JsonObject object)) {
        HttpErrors.send(ctx, FailureCode.INVALID_JSON, "the body must be a JSON object");
        return null;
      }
      request = object;
    } catch (DecodeException e) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_JSON, "the body is not valid JSON: " + e.getMessage());
      return null;
    }
    var nul = NulCharacters.firstPointer(request);
    if (nul.isPresent()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, nul.get() + ": " + NulCharacters.PROBLEM);
      return null;
    }
    var violations = schema.violations(request);
    if (violations.isPresent()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, violations.get());
      return null;
    }
    return request;
  }
}
