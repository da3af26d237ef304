package dev.canvasagent.mcpstdio;

import dev.canvasagent.model.sse.SseDecoder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.PrintStream;
import java.time.Duration;

/**
 * The session's GET stream: the messages the server sends outside any request (list changes,
 * resource updates), each written to stdout. 405 means the server offers none. When the stream
 * drops, or the server fails (5xx), it is opened again after a backoff that doubles up to a bound,
 * resuming with {@code Last-Event-ID}; a refusal (4xx) stops it, since asking again would get the
 * same answer. Used on the bridge's context only.
 */
final class ServerEventStream {
  private final Vertx vertx;
  private final HttpClient client;
  private final McpServerTarget target;
  private final SessionHeaders session;
  private final ServerMessages messages;
  private final PrintStream err;
  private final Duration firstBackoff;
  private final Duration maxBackoff;
  private long backoffMs;
  private String lastEventId = "";
  private HttpClientRequest current;
  private long reopenTimer = -1;
  private boolean closed;

  ServerEventStream(
      Vertx vertx,
      HttpClient client,
      McpServerTarget target,
      SessionHeaders session,
      ServerMessages messages,
      PrintStream err,
      Duration firstBackoff,
      Duration maxBackoff) {
    this.vertx = vertx;
    this.client = client;
    this.target = target;
    this.session = session;
    this.messages = messages;
    this.err = err;
    this.firstBackoff = firstBackoff;
    this.maxBackoff = maxBackoff;
    this.backoffMs = firstBackoff.toMillis();
  }

  void open() {
    if (closed) {
      return;
    }
    client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(target.url().toString())
                .setHeaders(session.stream(lastEventId)))
        .compose(
            request -> {
              current = request;
              return request.send();
            })
        .onComplete(
            response -> {
              if (closed) {
                return;
              }
              if (response.failed()) {
                reopenLater(JsonRpcErrors.unreachableText(target.shownUrl(), response.cause()));
              } else {
                opened(response.result());
              }
            });
  }

  /** Stops reading and reopening; the connection is reset. */
  void close() {
    closed = true;
    if (reopenTimer >= 0) {
      vertx.cancelTimer(reopenTimer);
    }
    if (current != null) {
      current.reset();
    }
  }

  private void opened(HttpClientResponse response) {
    int status = response.statusCode();
    if (status == 405) {
      response.body();
      return; // the server sends nothing outside requests: fine
    }
    boolean stream =
        status / 100 == 2
            && MessageForwarder.mediaType(response.getHeader(HttpHeaders.CONTENT_TYPE))
                .equals("text/event-stream");
    if (!stream) {
      response
          .body()
          .onComplete(
              body -> {
                String problem =
                    status / 100 == 2
                        ? "HTTP " + status + " that is not an event stream"
                        : JsonRpcErrors.httpProblem(
                            status, body.succeeded() ? body.result() : null, true);
                if (status >= 500 || status == 408 || status == 429) {
                  reopenLater(problem);
                } else {
                  err.println("mcp-stdio: the server's event stream is closed: " + problem);
                }
              });
      return;
    }
    SseDecoder decoder =
        new SseDecoder(
            event -> {
              if (messages.relay(event.data(), "an event") != null) {
                backoffMs = firstBackoff.toMillis(); // it works again: the next drop retries soon
              }
            });
    boolean[] over = {false};
    response.handler(
        buffer -> {
          decoder.feed(buffer);
          lastEventId = decoder.lastEventId().isEmpty() ? lastEventId : decoder.lastEventId();
        });
    response.exceptionHandler(
        cut -> {
          if (!over[0]) {
            over[0] = true;
            reopenLater("the event stream broke: " + cut.getMessage());
          }
        });
    response.endHandler(
        end -> {
          decoder.end();
          if (!over[0]) {
            over[0] = true;
            reopenLater("the server ended the event stream");
          }
        });
  }

  private void reopenLater(String why) {
    if (closed) {
      return;
    }
    err.println("mcp-stdio: " + why + "; reopening in " + backoffMs + " ms");
    reopenTimer =
        vertx.setTimer(
            backoffMs,
            fired -> {
              reopenTimer = -1;
              open();
            });
    backoffMs = Math.min(backoffMs * 2, maxBackoff.toMillis());
  }
}
