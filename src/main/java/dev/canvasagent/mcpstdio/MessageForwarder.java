package dev.canvasagent.mcpstdio;

import dev.canvasagent.model.sse.SseDecoder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * One client message POSTed to the server, and the server's answer relayed to stdout: nothing for
 * 202, a JSON body as one line, an event stream's messages one line each. A request the server
 * did not answer in JSON-RPC (an HTTP error, a server out of reach, a stream cut short) gets a
 * JSON-RPC error with its id; any other message's failure goes to stderr.
 */
final class MessageForwarder {

  /**
   * {@code sent}: the message is on the wire, so the next may follow ({@code initialize}: once
   * answered, so that what follows carries the session). {@code done}: its answer is relayed.
   */
  record Exchange(Future<Void> sent, Future<Void> done) {}

  /** Resumptions of one request's event stream in a row: a server that only primes is no loop. */
  static final int MAX_RESUMPTIONS = 5;

  private final Vertx vertx;
  private final Duration resumeDelay;
  private final HttpClient client;
  private final McpServerTarget target;
  private final SessionHeaders session;
  private final ServerMessages messages;
  private final PrintStream err;

  MessageForwarder(
      Vertx vertx,
      Duration resumeDelay,
      HttpClient client,
      McpServerTarget target,
      SessionHeaders session,
      ServerMessages messages,
      PrintStream err) {
    this.vertx = vertx;
    this.resumeDelay = resumeDelay;
    this.client = client;
    this.target = target;
    this.session = session;
    this.messages = messages;
    this.err = err;
  }

  Exchange forward(ClientMessage message) {
    Promise<Void> sent = Promise.promise();
    Promise<Void> done = Promise.promise();
    boolean initialize = message.isInitialize();
    boolean sessionSent = !initialize && session.sessionId().isPresent();
    client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(target.url().toString())
                .setHeaders(session.post(initialize)))
        .compose(
            request -> {
              Future<HttpClientResponse> response = request.response();
              Future<Void> written = request.end(Buffer.buffer(message.line()));
              if (!initialize) {
                written.onComplete(ignored -> sent.tryComplete());
              }
              return response;
            })
        .onComplete(
            response -> {
              if (!initialize) {
                sent.tryComplete();
              }
              if (response.failed()) {
                unreachable(message, response.cause());
                done.complete();
              } else {
                relay(message, sessionSent, response.result())
                    .onComplete(relayed -> done.complete());
              }
            });
    done.future().onComplete(ignored -> sent.tryComplete());
    return new Exchange(sent.future(), done.future());
  }

  private Future<Void> relay(
      ClientMessage message, boolean sessionSent, HttpClientResponse response) {
    int status = response.statusCode();
    if (message.isInitialize() && status / 100 == 2) {
      String assigned = response.getHeader(SessionHeaders.SESSION_ID);
      if (assigned != null && !assigned.isBlank()) {
        session.sessionAssigned(assigned);
      }
    }
    if (status == 404 && sessionSent) {
      session.sessionExpired();
    }
    if (status / 100 != 2) {
      return response
          .body()
          .otherwiseEmpty()
          .map(
              body -> {
                refused(message, status, body, sessionSent);
                return null;
              });
    }
    String type = mediaType(response.getHeader(HttpHeaders.CONTENT_TYPE));
    if (type.equals("text/event-stream")) {
      return relayStream(message, response);
    }
    return response
        .body()
        .map(
            body -> {
              if (body.length() == 0) {
                if (status != 202 && message.requestId().isPresent()) {
                  noAnswer(message, "the server answered HTTP " + status + " without a message");
                }
                return null;
              }
              Object json = messages.relay(body.toString(), "a response body");
              if (json == null) {
                noAnswer(
                    message,
                    "the server answered HTTP " + status + " with a body that is not JSON");
              } else {
                noteNegotiation(message, json);
              }
              return (Void) null;
            })
        .otherwise(
            cut -> {
              noAnswer(message, "the server's response was cut short: " + cut.getMessage());
              return null;
            });
  }

  /**
   * Every event's message, in order. A request's stream that ends before its answer is resumed
   * with a GET carrying {@code Last-Event-ID} when its events had ids (the transport's
   * resumption, which a server may also use to poll), a bounded number of times; else the request
   * gets an error.
   */
  private Future<Void> relayStream(ClientMessage message, HttpClientResponse response) {
    return readEvents(message, response, "")
        .compose(end -> afterStream(message, end, MAX_RESUMPTIONS));
  }

  /** How a request's event stream ended: answered, or cut (why), and the last event id seen. */
  private record StreamEnd(boolean answered, String lastEventId, String cut) {}

  private Future<StreamEnd> readEvents(
      ClientMessage message, HttpClientResponse response, String resumedAfter) {
    Promise<StreamEnd> ended = Promise.promise();
    boolean[] answered = {false};
    Optional<Object> id = message.requestId();
    SseDecoder decoder =
        new SseDecoder(
            event -> {
              Object json = messages.relay(event.data(), "an event");
              if (json != null && id.isPresent() && ServerMessages.answers(json, id.get())) {
                answered[0] = true;
                noteNegotiation(message, json);
              }
            });
    String[] lastEventId = {resumedAfter};
    response.handler(
        buffer -> {
          decoder.feed(buffer);
          lastEventId[0] = decoder.lastEventId().isEmpty() ? lastEventId[0] : decoder.lastEventId();
          if (answered[0] && !resumedAfter.isEmpty()) {
            // A resumed GET may stay open for more; this request needs nothing further from it.
            response.request().reset();
            ended.tryComplete(new StreamEnd(true, lastEventId[0], null));
          }
        });
    response.exceptionHandler(
        cut ->
            ended.tryComplete(
                new StreamEnd(
                    answered[0],
                    lastEventId[0],
                    "the server's event stream broke before the response: " + cut.getMessage())));
    response.endHandler(
        end -> {
          decoder.end();
          lastEventId[0] = decoder.lastEventId().isEmpty() ? lastEventId[0] : decoder.lastEventId();
          ended.tryComplete(
              new StreamEnd(
                  answered[0],
                  lastEventId[0],
                  "the server's event stream ended before the response"));
        });
    return ended.future();
  }

  private Future<Void> afterStream(ClientMessage message, StreamEnd end, int resumptionsLeft) {
    if (end.answered() || message.requestId().isEmpty()) {
      return Future.succeededFuture();
    }
    if (end.lastEventId().isEmpty() || resumptionsLeft == 0) {
      noAnswer(message, end.cut());
      return Future.succeededFuture();
    }
    Promise<Void> waited = Promise.promise();
    vertx.setTimer(resumeDelay.toMillis(), fired -> waited.complete());
    return waited
        .future()
        .compose(
            ready ->
                client.request(
                    new RequestOptions()
                        .setMethod(HttpMethod.GET)
                        .setAbsoluteURI(target.url().toString())
                        .setHeaders(session.stream(end.lastEventId()))))
        .compose(HttpClientRequest::send)
        .compose(
            response -> {
              boolean stream =
                  response.statusCode() / 100 == 2
                      && mediaType(response.getHeader(HttpHeaders.CONTENT_TYPE))
                          .equals("text/event-stream");
              if (stream) {
                return readEvents(message, response, end.lastEventId());
              }
              return response
                  .body()
                  .otherwiseEmpty()
                  .compose(
                      body ->
                          Future.failedFuture(
                              JsonRpcErrors.httpProblem(response.statusCode(), body, true)));
            })
        .transform(
            resumed -> {
              if (resumed.succeeded()) {
                return afterStream(message, resumed.result(), resumptionsLeft - 1);
              }
              noAnswer(
                  message, end.cut() + ", and resuming it failed: " + resumed.cause().getMessage());
              return Future.succeededFuture();
            });
  }

  /** initialize's result names the protocol version the rest of the session declares. */
  private void noteNegotiation(ClientMessage message, Object json) {
    if (message.isInitialize()
        && ServerMessages.answers(json, message.requestId().orElseThrow())
        && json instanceof JsonObject response
        && response.getValue("result") instanceof JsonObject result
        && result.getValue("protocolVersion") instanceof String version) {
      session.protocolNegotiated(version);
    }
  }

  private void refused(ClientMessage message, int status, Buffer body, boolean sessionSent) {
    Optional<Object> id = message.requestId();
    if (id.isPresent()) {
      messages.write(JsonRpcErrors.fromHttp(id.get(), status, body, sessionSent));
    } else {
      err.println(
          "mcp-stdio: the server refused "
              + message.describe()
              + ": "
              + JsonRpcErrors.httpProblem(status, body, sessionSent));
    }
  }

  private void unreachable(ClientMessage message, Throwable cause) {
    Optional<Object> id = message.requestId();
    if (id.isPresent()) {
      messages.write(JsonRpcErrors.unreachable(id.get(), target.shownUrl(), cause));
    } else {
      err.println(
          "mcp-stdio: "
              + message.describe()
              + " not delivered: "
              + JsonRpcErrors.unreachableText(target.shownUrl(), cause));
    }
  }

  private void noAnswer(ClientMessage message, String problem) {
    Optional<Object> id = message.requestId();
    if (id.isPresent()) {
      messages.write(
          JsonRpcErrors.response(id.get(), JsonRpcErrors.TRANSPORT_ERROR, problem, null));
    } else {
      err.println("mcp-stdio: " + message.describe() + ": " + problem);
    }
  }

  static String mediaType(String contentType) {
    if (contentType == null) {
      return "";
    }
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .trim()
        .toLowerCase(Locale.ROOT);
  }
}
