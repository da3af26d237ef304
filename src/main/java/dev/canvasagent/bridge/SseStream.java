package dev.canvasagent.bridge;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One browser's (or {@code curl -N}'s) Server-Sent Events stream of a room: {@code event:} is the
 * topic, {@code data:} the JSON payload, {@code id:} the room event id to resume from with
 * {@code Last-Event-ID}. Heartbeat comments keep idle connections open. A client that cannot keep up
 * (its write queue is full) is disconnected rather than buffered without bound; it may reconnect and
 * resume. SSE is one-way, so an SSE client is never the room's host.
 */
final class SseStream implements RoomClient {
  private static final Logger LOG = LoggerFactory.getLogger(SseStream.class);
  static final int RECONNECT_DELAY_MS = 2_000;

  private final Vertx vertx;
  private final HttpServerResponse response;
  private final String roomId;
  private final String clientId;
  private final Runnable onClosed;
  private long heartbeatTimer = -1;
  private boolean closed;

  SseStream(
      Vertx vertx, HttpServerResponse response, String roomId, String clientId, Runnable onClosed) {
    this.vertx = vertx;
    this.response = response;
    this.roomId = roomId;
    this.clientId = clientId;
    this.onClosed = onClosed;
  }

  /** Prepares the response; nothing is sent before the stream is subscribed (or catching up). */
  void open() {
    response.closeHandler(end -> release("client closed"));
    response.exceptionHandler(error -> release("connection error"));
    response
        .setChunked(true)
        .putHeader("content-type", "text/event-stream; charset=utf-8")
        .putHeader("cache-control", "no-cache")
        .putHeader("content-encoding", "identity")
        .putHeader("x-accel-buffering", "no");
  }

  /** Once joined: a comment saying so (a client knows it is subscribed when it reads it), then heartbeats. */
  void greet(int heartbeatMs) {
    write(
        "retry: "
            + RECONNECT_DELAY_MS
            + "\n: subscribed to room "
            + roomId
            + " as "
            + clientId
            + "\n\n");
    heartbeatTimer = vertx.setPeriodic(heartbeatMs, id -> write(": heartbeat\n\n"));
  }

  @Override
  public String clientId() {
    return clientId;
  }

  @Override
  public String transport() {
    return "sse";
  }

  @Override
  public boolean canHost() {
    return false;
  }

  @Override
  public boolean mayEdit() {
    return false;
  }

  @Override
  public boolean deliver(RoomEvent event) {
    // A slice per client: one copy of the bytes, but each write reads them from the start.
    return write(event.sseChunk().slice());
  }

  private boolean write(String chunk) {
    return write(Buffer.buffer(chunk));
  }

  private boolean write(Buffer chunk) {
    if (closed) {
      return false;
    }
    if (response.writeQueueFull()) {
      LOG.atWarn()
          .addKeyValue("roomId", roomId)
          .addKeyValue("clientId", clientId)
          .log("sse.slow_consumer_disconnected");
      close("slow consumer");
      return false;
    }
    response.write(chunk);
    return true;
  }

  /** Ends the stream from the server's side (shutdown, slow consumer). */
  @Override
  public void close(String why) {
    if (!closed) {
      release(why);
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
    LOG.atDebug()
        .addKeyValue("roomId", roomId)
        .addKeyValue("clientId", clientId)
        .addKeyValue("why", why)
        .log("sse.closed");
    onClosed.run();
  }
}
