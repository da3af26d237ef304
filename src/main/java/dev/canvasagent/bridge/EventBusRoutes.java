package dev.canvasagent.bridge;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * {@code /eventbus}: the SockJS event-bus bridge ({@link SockJSBridge}) and the two things its
 * transports need from the router before it: a bounded body for the xhr sends, and an honest
 * {@code Connection: close} where SockJS closes anyway.
 */
final class EventBusRoutes {
  private final SockJSBridge bridge;
  private final int maxMessageBytes;

  /** {@code maxMessageBytes}: the largest message, by any transport ({@code CANVAS_AGENT_MAX_MESSAGE_BYTES}). */
  EventBusRoutes(SockJSBridge bridge, int maxMessageBytes) {
    this.bridge = bridge;
    this.maxMessageBytes = maxMessageBytes;
  }

  void mount(Router router) {
    // The xhr transports post what a browser sends to /eventbus/<server>/<session>/xhr_send, and
    // SockJS reads that from the routing context's body. So that route alone gets a body handler,
    // bounded like a WebSocket message; no other SockJS route reads a body.
    router
        .postWithRegex("/eventbus/[^/.]+/[^/.]+/xhr_send")
        .handler(BodyHandler.create(false).setBodyLimit(maxMessageBytes))
        .failureHandler(
            BodyTooLarge.answer(
                "a SockJS message", maxMessageBytes, "CANVAS_AGENT_MAX_MESSAGE_BYTES"));
    // SockJS closes the connection after every poll and every full stream (vert-x3/vertx-web#2862)
    // without saying so. A client or proxy that reuses the connection then sends its next request
    // into a closing socket. Saying it spares them the reset.
    router
        .postWithRegex("/eventbus/[^/.]+/[^/.]+/(?:xhr|xhr_streaming)")
        .handler(
            ctx -> {
              ctx.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
              ctx.next();
            });
    router.route("/eventbus/*").subRouter(bridge.router());
  }
}
