package dev.canvasagent.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model, on loopback in the driver's process: an Anthropic Messages endpoint that, for every
 * request, waits {@code firstByteDelayMs} after the request body arrived, then streams the run's
 * tool-call answer (the same for every run, or one of the run's own), one write per server-sent
 * event, {@code eventGapMs} apart (0: back to back).
 * Each request names its run with a {@code bench-run-<n>} tag in the user message; the stub keeps,
 * per run, when the body arrived and when it wrote its first byte, the event that completes the first
 * tool call, and its last byte, so the driver subtracts the delay the stub really took from each run.
 */
final class StubModel {
  static final Pattern RUN_TAG = Pattern.compile("bench-run-(\\d+)");

  /**
   * One answered request, in {@link System#nanoTime} of this process.
   *
   * @param requests how many requests named this run (more than 1: the server retried)
   */
  record Timing(
      long bodyReceived, long firstByte, long firstActionEnd, long lastByte, int requests) {
    long firstByteDelayNanos() {
      return firstByte - bodyReceived;
    }

    long firstActionDelayNanos() {
      return firstActionEnd - bodyReceived;
    }
  }

  private final Vertx vertx;
  private final LongFunction<AnthropicWire> answers;
  private final long firstByteDelayMs;
  private final long eventGapMs;
  private final Map<Long, Timing> timings = new ConcurrentHashMap<>();
  private final AtomicLong untagged = new AtomicLong();
  private HttpServer server;

  StubModel(Vertx vertx, AnthropicWire answer, long firstByteDelayMs, long eventGapMs) {
    this(vertx, run -> answer, firstByteDelayMs, eventGapMs);
  }

  /** With an answer of each run's own ({@code answers} of the run's number), e.g. shape ids of its own. */
  StubModel(
      Vertx vertx, LongFunction<AnthropicWire> answers, long firstByteDelayMs, long eventGapMs) {
    this.vertx = vertx;
    this.answers = answers;
    this.firstByteDelayMs = firstByteDelayMs;
    this.eventGapMs = eventGapMs;
  }

  Future<Integer> start() {
    server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0));
    return server.requestHandler(this::handle).listen().map(HttpServer::actualPort);
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /** The run's timing once its answer was written to the end, or null. */
  Timing timing(long run) {
    return timings.get(run);
  }

  long untaggedRequests() {
    return untagged.get();
  }

  Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }

  private void handle(HttpServerRequest request) {
    request
        .body()
        .onSuccess(
            body -> {
              long received = System.nanoTime();
              Matcher tag = RUN_TAG.matcher(body.toString());
              long run = tag.find() ? Long.parseLong(tag.group(1)) : -1;
              if (run < 0) {
                untagged.incrementAndGet();
                request
                    .response()
                    .setStatusCode(400)
                    .end(
                        "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"no bench-run tag\"}}");
                return;
              }
              if (firstByteDelayMs > 0) {
                vertx.setTimer(
                    firstByteDelayMs, fired -> answer(request.response(), run, received));
              } else {
                answer(request.response(), run, received);
              }
            });
  }

  private void answer(HttpServerResponse response, long run, long received) {
    long firstByte = System.nanoTime();
    response
        .setChunked(true)
        .putHeader("content-type", "text/event-stream")
        .putHeader("cache-control", "no-cache");
    write(response, answers.apply(run), run, received, firstByte, 0L, 0);
  }

  /** Writes events from {@code next} on: all at once, or one per {@code eventGapMs}. */
  private void write(
      HttpServerResponse response,
      AnthropicWire answer,
      long run,
      long received,
      long firstByte,
      long firstActionEnd,
      int next) {
    long actionEnd = firstActionEnd;
    for (int i = next; i < answer.events().size(); i++) {
      response.write(Buffer.buffer(answer.events().get(i)));
      if (i == answer.firstActionEnd()) {
        actionEnd = System.nanoTime();
      }
      if (eventGapMs > 0 && i + 1 < answer.events().size()) {
        long end = actionEnd;
        int from = i + 1;
        vertx.setTimer(
            eventGapMs, fired -> write(response, answer, run, received, firstByte, end, from));
        return;
      }
    }
    response.end();
    long lastByte = System.nanoTime();
    long endOfFirstAction = actionEnd;
    timings.merge(
        run,
        new Timing(received, firstByte, endOfFirstAction, lastByte, 1),
        (earlier, later) ->
            new Timing(
                later.bodyReceived(),
                later.firstByte(),
                later.firstActionEnd(),
                later.lastByte(),
                earlier.requests() + 1));
  }
}
