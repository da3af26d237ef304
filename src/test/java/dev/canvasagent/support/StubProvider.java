package dev.canvasagent.support;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A model provider on loopback for tests: it records every request it receives and answers each
 * with the next scripted {@link Reply} — a streamed body written as separate HTTP chunks (so the
 * client sees the cuts), optionally dropped or left hanging part way, or a plain status answer.
 */
public final class StubProvider {
  /** A request as the stub received it. */
  public record Received(String method, String uri, MultiMap headers, JsonObject body) {}

  public sealed interface Reply {}

  /**
   * A 200 {@code text/event-stream} body cut into chunks at {@code cuts} (byte offsets). After
   * {@code stopAt} bytes (when non-negative) the stub either closes the connection ({@code drop})
   * or stops writing and keeps it open.
   */
  public record Stream(byte[] body, List<Integer> cuts, int stopAt, boolean drop) implements Reply {
    public static Stream whole(byte[] body) {
      return new Stream(body, List.of(), -1, false);
    }

    public static Stream cutAt(byte[] body, int offset) {
      return new Stream(body, List.of(offset), -1, false);
    }

    public static Stream bytewise(byte[] body) {
      List<Integer> cuts = new ArrayList<>();
      for (int i = 1; i < body.length; i++) {
        cuts.add(i);
      }
      return new Stream(body, cuts, -1, false);
    }

    public static Stream droppedAfter(byte[] body, int bytes) {
      return new Stream(body, List.of(), bytes, true);
    }

    public static Stream hangingAfter(byte[] body, int bytes) {
      return new Stream(body, List.of(), bytes, false);
    }
  }

  /** A non-streamed answer, e.g. 429 with {@code Retry-After}. */
  public record Status(int status, Map<String, String> headers, String body) implements Reply {}

  private final HttpServer server;
  private final Queue<Reply> replies = new ConcurrentLinkedQueue<>();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Queue<Promise<Void>> closes = new ConcurrentLinkedQueue<>();

  private StubProvider(HttpServer server) {
    this.server = server;
  }

  public static Future<StubProvider> start(Vertx vertx) {
    HttpServer server = vertx.createHttpServer();
    StubProvider stub = new StubProvider(server);
    server.requestHandler(stub::handle);
    return server.listen(0, "127.0.0.1").map(listening -> stub);
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /** The server's environment for Anthropic ({@code anthropic:…}) and OpenAI ({@code openai:…}) models here. */
  public Map<String, String> anthropicAndOpenAi() {
    return Map.of(
        "ANTHROPIC_API_KEY",
        "sk-ant-stub",
        "ANTHROPIC_BASE_URL",
        baseUrl(),
        "OPENAI_API_KEY",
        "sk-stub",
        "OPENAI_BASE_URL",
        baseUrl() + "/v1");
  }

  public StubProvider then(Reply reply) {
    replies.add(reply);
    return this;
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  /** Completes when the connection of a hanging stream closes (the client reset it). */
  public Future<Void> nextHangingStreamClosed() {
    Promise<Void> closed = Promise.promise();
    closes.add(closed);
    return closed.future();
  }

  public Future<Void> close() {
    return server.close();
  }

  private void handle(HttpServerRequest request) {
    request
        .body()
        .onSuccess(
            body -> {
              JsonObject json = body.length() == 0 ? new JsonObject() : body.toJsonObject();
              received.add(
                  new Received(
                      request.method().name(),
                      request.uri(),
                      MultiMap.caseInsensitiveMultiMap().addAll(request.headers()),
                      json));
              Reply reply = replies.poll();
              HttpServerResponse response = request.response();
              if (reply == null) {
                response
                    .setStatusCode(500)
                    .end(
                        "{\"error\":{\"type\":\"api_error\",\"message\":\"the stub has no reply left\"}}");
              } else if (reply instanceof Status status) {
                response.setStatusCode(status.status());
                status.headers().forEach(response::putHeader);
                response.putHeader("content-type", "application/json").end(status.body());
              } else {
                stream(request, response, (Stream) reply);
              }
            });
  }

  private void stream(HttpServerRequest request, HttpServerResponse response, Stream stream) {
    response
        .setChunked(true)
        .putHeader("content-type", "text/event-stream")
        .putHeader("cache-control", "no-cache");
    int end =
        stream.stopAt() >= 0
            ? Math.min(stream.stopAt(), stream.body().length)
            : stream.body().length;
    int from = 0;
    for (int cut : stream.cuts()) {
      if (cut > from && cut < end) {
        response.write(Buffer.buffer().appendBytes(stream.body(), from, cut - from));
        from = cut;
      }
    }
    if (end > from) {
      response.write(Buffer.buffer().appendBytes(stream.body(), from, end - from));
    } else if (end == 0) {
      response.writeHead();
    }
    if (stream.stopAt() < 0) {
      response.end();
    } else if (stream.drop()) {
      request.connection().close();
    } else {
      Promise<Void> closed = closes.poll();
      if (closed != null) {
        response.closeHandler(gone -> closed.tryComplete());
      }
    }
  }
}
