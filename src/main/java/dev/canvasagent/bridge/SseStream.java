package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One browser's (or {@code curl -N}'s) Server-Sent Events stream of a room: {@code event:} is the
 * topic, {@code data:} the JSON payload, {@code id:} the seq of an action envelope. Heartbeat comments
 * keep idle connections open. A client that cannot keep up (its write queue is full) is disconnected
 * rather than buffered without bound; a closed client frees its consumers at once.
 */
final class SseStream {
  private static final Logger LOG = LoggerFactory.getLogger(SseStream.class);
  static final int RECONNECT_DELAY_MS = 2_000;

  private final Vertx vertx;
  private final HttpServerResponse response;
  private final String roomId;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
  private final Runnable onClosed;
  private long heartbeatTimer = -1;
  private boolean closed;

  SseStream(Vertx vertx, HttpServerResponse response, String roomId, Runnable onClosed) {
    this.vertx = vertx;
    this.response = response;
    this.roomId = roomId;
    this.onClosed = onClosed;
  }

  /** Subscribes to the topics, then sends the headers and a first comment: from then on, nothing is missed. */
  Future<Void> open(List<RoomTopic> topics, int heartbeatMs) {
    response.closeHandler(closed -> release("client closed"));
    response.exceptionHandler(error -> release("connection error"));
    for (RoomTopic topic : topics) {
      consumers.add(vertx.eventBus().<JsonObject>consumer(topic.address(roomId), message -> send(topic, message.body())));
    }
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList())
        .map(subscribed -> {
          response.setChunked(true)
              .putHeader("content-type", "text/event-stream; charset=utf-8")
              .putHeader("cache-control", "no-cache")
              .putHeader("content-encoding", "identity")
              .putHeader("x-accel-buffering", "no")
              .write("retry: " + RECONNECT_DELAY_MS + "\n: subscribed to room " + roomId + "\n\n");
          heartbeatTimer = vertx.setPeriodic(heartbeatMs, id -> write(": heartbeat\n\n"));
          return null;
        });
  }

  private void send(RoomTopic topic, JsonObject payload) {
    StringBuilder event = new StringBuilder().append("event: ").append(topic.wireName()).append('\n');
    if (topic == RoomTopic.AGENT_ACTION && payload.containsKey("seq")) {
      event.append("id: ").append(payload.getLong("seq")).append('\n');
    }
    event.append("data: ").append(payload.encode()).append("\n\n");
    write(event.toString());
  }

  private void write(String chunk) {
    if (closed) {
      return;
    }
    if (response.writeQueueFull()) {
      LOG.atWarn().addKeyValue("roomId", roomId).log("sse.slow_consumer_disconnected");
      close();
      return;
    }
    response.write(chunk);
  }

  /**
   * Ends the stream from the server's side (shutdown, slow consumer). Before the stream was opened the
   * response is left to the caller, to answer with an error.
   */
  void close() {
    if (!closed) {
      release("closed by server");
      if (response.headWritten()) {
        response.end();
      }
    }
  }

  private void release(String why) {
    if (closed) {
      return;
    }
    closed = true;
    vertx.cancelTimer(heartbeatTimer);
    consumers.forEach(MessageConsumer::unregister);
    LOG.atDebug().addKeyValue("roomId", roomId).addKeyValue("why", why).log("sse.closed");
    onClosed.run();
  }
}
