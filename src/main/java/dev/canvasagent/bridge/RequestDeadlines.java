package dev.canvasagent.bridge;

import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * One connection's deadlines. Its next request head must be complete within {@code headTimeoutMs} of
 * the connection opening or of its previous answer ending, and a request's body within {@code
 * bodyTimeoutMs} of its head. A deadline counts from the start of its wait, not from the last byte, so
 * sending a byte now and then buys nothing. Late, the connection is closed: a late head has no request
 * to answer; a late body is answered {@code 408 REQUEST_TIMEOUT} first if nothing was answered yet. A
 * request without a body (every stream-opening request) has no body deadline, and a connection
 * upgraded to a WebSocket has no further heads to wait for. Lives on the bridge's event loop.
 */
final class RequestDeadlines {
  /** What a missed deadline reports; the connection is already being closed. */
  interface Missed {
    void head(String address);

    void body(String address);
  }

  private final Vertx vertx;
  private final HttpConnection connection;
  private final String address;
  private final long headTimeoutMs;
  private final long bodyTimeoutMs;
  private final Missed missed;
  private long headTimer = -1;
  private long bodyTimer = -1;
  private boolean closed;

  RequestDeadlines(
      Vertx vertx,
      HttpConnection connection,
      String address,
      long headTimeoutMs,
      long bodyTimeoutMs,
      Missed missed) {
    this.vertx = vertx;
    this.connection = connection;
    this.address = address;
    this.headTimeoutMs = headTimeoutMs;
    this.bodyTimeoutMs = bodyTimeoutMs;
    this.missed = missed;
  }

  /** The connection is ready for a request: opened, or its previous answer ended. */
  void awaitHead() {
    if (closed) {
      return;
    }
    vertx.cancelTimer(headTimer);
    headTimer =
        vertx.setTimer(
            headTimeoutMs,
            fired -> {
              headTimer = -1;
              missed.head(address);
              connection.close();
            });
  }

  /**
   * A request's head is complete ({@code ctx} is its first route). Its body, if it has one, now has
   * its own deadline; once its answer ends, the connection waits for its next head.
   */
  void headArrived(RoutingContext ctx) {
    vertx.cancelTimer(headTimer);
    headTimer = -1;
    vertx.cancelTimer(bodyTimer);
    bodyTimer = -1;
    HttpServerRequest request = ctx.request();
    if (hasBody(request)) {
      bodyTimer =
          vertx.setTimer(
              bodyTimeoutMs,
              fired -> {
                bodyTimer = -1;
                if (!request.isEnded()) {
                  bodyLate(ctx);
                }
              });
    }
    // Not called for an upgrade to a WebSocket: its answer never ends as an HTTP answer does.
    ctx.addEndHandler(
        ended -> {
          if (ended.failed()) {
            return;
          }
          if (request.isEnded()) {
            vertx.cancelTimer(bodyTimer);
            bodyTimer = -1;
          }
          awaitHead();
        });
  }

  private void bodyLate(RoutingContext ctx) {
    missed.body(address);
    // Nothing more of this body is read: the answer is the 408.
    ctx.request().pause();
    if (ctx.response().headWritten()) {
      connection.close();
      return;
    }
    ctx.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    HttpErrors.send(
            ctx,
            FailureCode.REQUEST_TIMEOUT,
            "the request body did not arrive within "
                + bodyTimeoutMs
                + " ms of its head (CANVAS_AGENT_BODY_TIMEOUT_MS)")
        .onComplete(written -> connection.close());
  }

  /** The connection closed: nothing is waited for any more. */
  void closed() {
    closed = true;
    vertx.cancelTimer(headTimer);
    vertx.cancelTimer(bodyTimer);
  }

  /** Whether the head announces a body: a positive length, or chunks (whose length nobody knows yet). */
  static boolean hasBody(HttpServerRequest request) {
    if (request.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
      return true;
    }
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length == null) {
      return false;
    }
    try {
      return Long.parseLong(length.strip()) > 0;
    } catch (NumberFormatException notANumber) {
      return true;
    }
  }
}
