package dev.canvasagent.bridge;

import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * A route's own answer to a body over its own limit, smaller than the server's: the router's 413 would
 * name the server's limit, and the client needs to know the one it ran into.
 */
final class BodyTooLarge implements Handler<RoutingContext> {
  private final String message;

  private BodyTooLarge(String message) {
    this.message = message;
  }

  /** Answers "{@code what} may not exceed {@code limitBytes} bytes", e.g. "a cancel body may not exceed 4096 bytes". */
  static BodyTooLarge answer(String what, long limitBytes) {
    return new BodyTooLarge(what + " may not exceed " + limitBytes + " bytes");
  }

  /** The same, naming the {@code setting} that sets the limit, so an operator knows what to raise. */
  static BodyTooLarge answer(String what, long limitBytes, String setting) {
    return new BodyTooLarge(what + " may not exceed " + limitBytes + " bytes (" + setting + ")");
  }

  /** A failure handler: it answers only the body handler's 413 and passes every other failure on. */
  @Override
  public void handle(RoutingContext ctx) {
    if (ctx.statusCode() == 413) {
      HttpErrors.send(ctx, FailureCode.BODY_TOO_LARGE, message);
    } else {
      ctx.next();
    }
  }
}
