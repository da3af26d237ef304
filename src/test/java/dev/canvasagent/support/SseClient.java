package dev.canvasagent.support;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A real Server-Sent Events client for tests: it parses the stream as a browser's EventSource does
 * and lets a test wait for the event it expects.
 */
public final class SseClient {
  /** One parsed event; {@code data} is the JSON payload. */
  public record SseEvent(String event, String id, JsonObject data) {}

  private final HttpClient client;
  private final List<SseEvent> events = new ArrayList<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private final List<Consumer<SseEvent>> listeners = new ArrayList<>();
  private final Promise<Void> ended = Promise.promise();
  private final Promise<Void> heartbeats = Promise.promise();
  private final List<HeartbeatWaiter> heartbeatWaiters = new ArrayList<>();
  private int heartbeatCount;
  private final StringBuilder pending = new StringBuilder();
  private HttpClientResponse response;

  private record Waiter(Predicate<SseEvent> until, Promise<List<SseEvent>> promise) {}

  private record HeartbeatWaiter(int count, Promise<Void> promise) {}

  private SseClient(HttpClient client) {
    this.client = client;
  }

  /** Connects; completes once the server has subscribed the stream (its first bytes arrived). */
  public static Future<SseClient> connect(
      Vertx vertx, int port, String path, Map<String, String> headers) {
    HttpClient client = vertx.createHttpClient();
    SseClient sse = new SseClient(client);
    Promise<SseClient> subscribed = Promise.promise();
    // On a Vert.x context, so the response's handlers are set in the task that receives its head:
    // from a test thread a short error body could otherwise end before anyone listens, and never be
    // seen.
    vertx
        .getOrCreateContext()
        .runOnContext(
            onContext ->
                client
                    .request(HttpMethod.GET, port, "127.0.0.1", path)
                    .compose(
                        request -> {
                          headers.forEach(request::putHeader);
                          request.putHeader("accept", "text/event-stream");
                          return request.send();
                        })
                    .onSuccess(
                        response -> {
                          sse.response = response;
                          if (response.statusCode() != 200) {
                            response
                                .body()
                                .onComplete(
                                    body ->
                                        subscribed.tryFail(
                                            "SSE answered "
                                                + response.statusCode()
                                                + ": "
                                                + (body.succeeded() ? body.result() : "")));
                            return;
                          }
                          response.handler(
                              chunk -> {
                                subscribed.tryComplete(sse);
                                sse.receive(chunk);
                              });
                          response.endHandler(end -> sse.ended.tryComplete());
                          response.exceptionHandler(error -> sse.ended.tryComplete());
                        })
                    .onFailure(subscribed::tryFail));
    return subscribed.future();
  }

  public static Future<SseClient> connect(Vertx vertx, int port, String path) {
    return connect(vertx, port, path, Map.of());
  }

  public HttpClientResponse response() {
    return response;
  }

  private void receive(Buffer chunk) {
    pending.append(chunk.toString());
    int boundary;
    while ((boundary = pending.indexOf("\n\n")) >= 0) {
      String block = pending.substring(0, boundary);
      pending.delete(0, boundary + 2);
      parse(block);
    }
  }

  private synchronized void parse(String block) {
    if (block.startsWith(": heartbeat")) {
      heartbeats.tryComplete();
      heartbeatCount++;
      heartbeatWaiters.removeIf(
          waiter -> waiter.count() <= heartbeatCount && waiter.promise().tryComplete());
      return;
    }
    String event = "message";
    String id = null;
    StringBuilder data = new StringBuilder();
    for (String line : block.split("\n")) {
      if (line.startsWith("event: ")) {
        event = line.substring(7);
      } else if (line.startsWith("id: ")) {
        id = line.substring(4);
      } else if (line.startsWith("data: ")) {
        data.append(line.substring(6));
      }
    }
    if (data.length() == 0) {
      return;
    }
    events.add(new SseEvent(event, id, new JsonObject(data.toString())));
    listeners.forEach(listener -> listener.accept(events.get(events.size() - 1)));
    Iterator<Waiter> it = waiters.iterator();
    while (it.hasNext()) {
      Waiter waiter = it.next();
      if (waiter.until().test(events.get(events.size() - 1))) {
        it.remove();
        waiter.promise().complete(List.copyOf(events));
      }
    }
  }

  /** Calls {@code listener} with every event that arrives from now on, as it arrives. */
  public synchronized void onEvent(Consumer<SseEvent> listener) {
    listeners.add(listener);
  }

  /** Every event received so far. */
  public synchronized List<SseEvent> received() {
    return List.copyOf(events);
  }

  /** Every event received so far, once one matching {@code until} has arrived. */
  public synchronized Future<List<SseEvent>> awaitEvent(Predicate<SseEvent> until) {
    if (events.stream().anyMatch(until)) {
      return Future.succeededFuture(List.copyOf(events));
    }
    Promise<List<SseEvent>> promise = Promise.promise();
    waiters.add(new Waiter(until, promise));
    return promise.future();
  }

  /** Completes at the first heartbeat comment. */
  public Future<Void> heartbeat() {
    return heartbeats.future();
  }

  /**
   * Completes once {@code count} heartbeat comments have arrived: the server's own clock, for a test
   * that must keep the stream open for so many heartbeat intervals.
   */
  public synchronized Future<Void> heartbeats(int count) {
    if (heartbeatCount >= count) {
      return Future.succeededFuture();
    }
    Promise<Void> promise = Promise.promise();
    heartbeatWaiters.add(new HeartbeatWaiter(count, promise));
    return promise.future();
  }

  /** Completes when the server ends the stream. */
  public Future<Void> ended() {
    return ended.future();
  }

  public Future<Void> close() {
    return client.close();
  }
}
