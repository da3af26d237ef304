package dev.canvasagent.model.http;

import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.model.sse.SseDecoder;
import dev.canvasagent.security.CorrelationId;
import dev.canvasagent.security.CredentialRedactor;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming call to a provider over HTTP, tried again when it failed retryably before any
 * event reached the caller.
 *
 * <p>The response body is fed, buffer by buffer as it arrives, to an {@link SseDecoder} and the
 * provider's normalizer. A non-2xx answer becomes one error from its (bounded) body; a refused or
 * dropped connection, or a body that ends before the provider's terminal marker, a {@code
 * stream_truncated} error; no byte for the idle timeout, a {@code stream_timeout} error. Retryable
 * failures (those, and 408, 409, 429, 5xx, and the provider's retryable in-band errors) are tried
 * again up to the configured number of times, on a Vert.x timer, while nothing has been emitted:
 * once events have flowed the caller may already have applied actions, so the failure is final.
 * {@link #cancel} resets the connection and nothing more is emitted.
 *
 * <p>The failure the caller gets is told in the server's words ({@link CallerError}); the provider's
 * own text, which may quote the key, goes only to the {@code model.call.failed} line, redacted, under
 * the correlation id the caller's error carries.
 */
final class StreamingCall implements ModelCall {
  private static final Logger LOG = LoggerFactory.getLogger(StreamingCall.class);
  static final int MAX_ERROR_BODY_BYTES = 16 * 1024;

  private final Vertx vertx;
  private final HttpClient client;
  private final String provider;
  private final String model;
  private final ProviderRequest request;
  private final Buffer body;
  private final Function<Consumer<ModelEvent>, StreamNormalizer> normalizers;
  private final Consumer<ModelEvent> events;
  private final Limits limits;
  private final CredentialRedactor redactor;
  private Attempt current;
  private int retries;
  private boolean emitted;
  private boolean finished;
  private boolean canceled;
  private long retryTimer = -1;

  /** One HTTP exchange; callbacks of an attempt that is no longer current are ignored. */
  private final class Attempt {
    HttpClientRequest httpRequest;
    long idleTimer = -1;
    boolean over;
    int status;

    boolean live() {
      return this == current && !over && !finished && !canceled;
    }
  }

  StreamingCall(
      Vertx vertx,
      HttpClient client,
      String provider,
      String model,
      ProviderRequest request,
      Function<Consumer<ModelEvent>, StreamNormalizer> normalizers,
      Consumer<ModelEvent> events,
      Limits limits,
      CredentialRedactor redactor) {
    this.vertx = vertx;
    this.client = client;
    this.provider = provider;
    this.model = model;
    this.request = request;
    this.body = request.body().toBuffer();
    this.normalizers = normalizers;
    this.events = events;
    this.limits = limits;
    this.redactor = redactor;
  }

  void start() {
    CanvasMetrics.of(vertx).providerCall(provider);
    attempt();
  }

  @Override
  public int retries() {
    return retries;
  }

  @Override
  public void cancel() {
    if (canceled) {
      return;
    }
    canceled = true;
    if (retryTimer >= 0) {
      vertx.cancelTimer(retryTimer);
    }
    if (current != null) {
      close(current);
    }
  }

  private void attempt() {
    retryTimer = -1;
    Attempt attempt = new Attempt();
    current = attempt;
    touch(attempt);
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setAbsoluteURI(request.url())
            .setSsl("https".equals(URI.create(request.url()).getScheme()))
            .setConnectTimeout(limits.idleTimeoutMs());
    request.headers().forEach(options::putHeader);
    options.putHeader("content-type", "application/json");
    options.putHeader("accept", "text/event-stream");
    client
        .request(options)
        .compose(
            httpRequest -> {
              attempt.httpRequest = httpRequest;
              if (!attempt.live()) {
                httpRequest.reset();
                return io.vertx.core.Future.failedFuture("attempt abandoned");
              }
              return httpRequest.send(body);
            })
        .onSuccess(response -> onResponse(attempt, response))
        .onFailure(
            error ->
                fail(
                    attempt,
                    new ModelEvent.Error(
                        "stream_truncated",
                        provider
                            + " could not be reached or dropped the connection: "
                            + error.getMessage(),
                        true),
                    null));
  }

  private void onResponse(Attempt attempt, HttpClientResponse response) {
    if (!attempt.live()) {
      return;
    }
    attempt.status = response.statusCode();
    touch(attempt);
    if (attempt.status / 100 != 2) {
      readError(attempt, response);
      return;
    }
    StreamNormalizer normalizer = normalizers.apply(event -> deliver(attempt, event));
    SseDecoder decoder = new SseDecoder(normalizer::accept);
    response.handler(
        chunk -> {
          if (attempt.live()) {
            touch(attempt);
            decoder.feed(chunk);
          }
        });
    response.exceptionHandler(
        error ->
            fail(
                attempt,
                new ModelEvent.Error(
                    "stream_truncated",
                    provider + " dropped the stream: " + error.getMessage(),
                    true),
                null));
    response.endHandler(
        end -> {
          if (attempt.live()) {
            decoder.end();
            normalizer.end();
          }
        });
  }

  private void readError(Attempt attempt, HttpClientResponse response) {
    Buffer errorBody = Buffer.buffer();
    MultiMap headers = response.headers();
    response.handler(
        chunk -> {
          touch(attempt);
          int room = MAX_ERROR_BODY_BYTES - errorBody.length();
          if (room > 0) {
            errorBody.appendBuffer(chunk.length() <= room ? chunk : chunk.getBuffer(0, room));
          }
        });
    Runnable answer =
        () -> fail(attempt, HttpErrorAnswer.toError(attempt.status, errorBody.toString()), headers);
    response.exceptionHandler(error -> answer.run());
    response.endHandler(end -> answer.run());
  }

  /** An event from the normalizer. */
  private void deliver(Attempt attempt, ModelEvent event) {
    if (!attempt.live()) {
      return;
    }
    if (event instanceof ModelEvent.Error error) {
      fail(attempt, error, null);
      return;
    }
    if (event instanceof ModelEvent.Stop) {
      attempt.over = true;
      finished = true;
      cancelIdle(attempt);
      events.accept(event);
      return;
    }
    emitted = true;
    events.accept(event);
  }

  private void fail(Attempt attempt, ModelEvent.Error error, MultiMap headers) {
    if (!attempt.live()) {
      return;
    }
    attempt.over = true;
    close(attempt);
    if (error.retryable() && !emitted && retries < limits.retries()) {
      retries++;
      long delay =
          RetryDelay.millis(retries, headers, limits.retryMaxDelayMs(), System.currentTimeMillis());
      LOG.atInfo()
          .addKeyValue("provider", provider)
          .addKeyValue("model", model)
          .addKeyValue("status", attempt.status)
          .addKeyValue("errorType", CallerError.safeType(error.errorType(), attempt.status))
          .addKeyValue("retry", retries)
          .addKeyValue("delayMs", delay)
          .log("model.call.retry");
      CanvasMetrics.of(vertx).providerRetry(provider);
      retryTimer = vertx.setTimer(Math.max(1, delay), id -> attempt());
      return;
    }
    finished = true;
    CanvasMetrics.of(vertx).providerError(provider, error.retryable());
    ModelEvent.Error told = CallerError.of(provider, attempt.status, error, CorrelationId.next());
    var line =
        LOG.atWarn()
            .addKeyValue("provider", provider)
            .addKeyValue("model", model)
            .addKeyValue("status", attempt.status)
            .addKeyValue("errorType", told.errorType())
            .addKeyValue("retryable", error.retryable())
            .addKeyValue("retries", retries)
            .addKeyValue("afterEvents", emitted)
            .addKeyValue("correlationId", told.correlationId());
    if (!told.errorType().equals(error.errorType())) {
      line =
          line.addKeyValue("providerErrorType", redactor.redact(String.valueOf(error.errorType())));
    }
    line.addKeyValue("detail", redactor.redact(error.message())).log("model.call.failed");
    events.accept(told);
  }

  /** (Re)arms the idle timer: the attempt fails when no byte arrives for the idle timeout. */
  private void touch(Attempt attempt) {
    if (!attempt.live()) {
      return;
    }
    cancelIdle(attempt);
    attempt.idleTimer =
        vertx.setTimer(
            limits.idleTimeoutMs(),
            id -> {
              attempt.idleTimer = -1;
              fail(
                  attempt,
                  new ModelEvent.Error(
                      "stream_timeout",
                      provider + " sent nothing for " + limits.idleTimeoutMs() + " ms",
                      true),
                  null);
            });
  }

  private void cancelIdle(Attempt attempt) {
    if (attempt.idleTimer >= 0) {
      vertx.cancelTimer(attempt.idleTimer);
      attempt.idleTimer = -1;
    }
  }

  private void close(Attempt attempt) {
    attempt.over = true;
    cancelIdle(attempt);
    if (attempt.httpRequest != null) {
      attempt.httpRequest.reset();
    }
  }
}
