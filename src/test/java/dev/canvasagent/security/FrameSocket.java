package dev.canvasagent.security;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A WebSocket that sends whatever text or bytes it is given and keeps every frame it receives (as
 * JSON; a frame that is not JSON is kept as {@code {unparsed}}): the room WebSocket and SockJS's raw
 * {@code /eventbus/websocket} endpoint, spoken frame by frame so hostile frames get through.
 */
final class FrameSocket {
  private final WebSocketClient client;
  private final List<JsonObject> frames = new ArrayList<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private final Promise<Short> closed = Promise.promise();
  private WebSocket socket;

  private record Waiter(int from, Predicate<JsonObject> matches, Promise<Integer> found) {}

  private FrameSocket(WebSocketClient client) {
    this.client = client;
  }

  static Future<FrameSocket> connect(Vertx vertx, int port, String uri) {
    // Frames far above the server's limit must leave this client: its own limits are lifted.
    FrameSocket frameSocket =
        new FrameSocket(
            vertx.createWebSocketClient(
                new WebSocketClientOptions()
                    .setMaxFrameSize(16 * 1024 * 1024)
                    .setMaxMessageSize(16 * 1024 * 1024)));
    WebSocketConnectOptions options =
        new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI(uri);
    Promise<FrameSocket> connected = Promise.promise();
    // On a context, so the handlers are in place before the first frame can arrive.
    vertx
        .getOrCreateContext()
        .runOnContext(
            onContext ->
                frameSocket
                    .client
                    .connect(options)
                    .map(
                        socket -> {
                          frameSocket.socket = socket;
                          socket.textMessageHandler(frameSocket::receive);
                          // SockJS's raw WebSocket writes the bridge's own refusals as binary
                          // frames.
                          socket.binaryMessageHandler(
                              bytes -> frameSocket.receive(bytes.toString()));
                          socket.closeHandler(end -> frameSocket.closed(socket.closeStatusCode()));
                          socket.exceptionHandler(error -> {});
                          return frameSocket;
                        })
                    .onComplete(connected));
    return connected.future();
  }

  private synchronized void receive(String text) {
    JsonObject frame;
    try {
      frame = new JsonObject(text);
    } catch (RuntimeException notAnObject) {
      frame = new JsonObject().put("unparsed", text);
    }
    frames.add(frame);
    int index = frames.size() - 1;
    for (var it = waiters.iterator(); it.hasNext(); ) {
      Waiter waiter = it.next();
      if (index >= waiter.from() && waiter.matches().test(frame)) {
        it.remove();
        waiter.found().tryComplete(index);
      }
    }
  }

  private synchronized void closed(Short status) {
    closed.tryComplete(status);
    waiters.forEach(
        waiter -> waiter.found().tryFail("the connection closed (status " + status + ")"));
    waiters.clear();
  }

  /** How many frames have arrived: where the next one will be. */
  synchronized int mark() {
    return frames.size();
  }

  synchronized List<JsonObject> frames(int from, int to) {
    return List.copyOf(frames.subList(from, to));
  }

  /** The index of the first frame at or after {@code from} that matches. */
  synchronized Future<Integer> await(int from, Predicate<JsonObject> matches) {
    for (int i = from; i < frames.size(); i++) {
      if (matches.test(frames.get(i))) {
        return Future.succeededFuture(i);
      }
    }
    if (isClosed()) {
      return Future.failedFuture("the connection closed (status " + closed.future().result() + ")");
    }
    Promise<Integer> found = Promise.promise();
    waiters.add(new Waiter(from, matches, found));
    return found.future();
  }

  void send(String text) {
    socket.writeTextMessage(text);
  }

  void sendBinary(Buffer bytes) {
    socket.writeBinaryMessage(bytes);
  }

  boolean isClosed() {
    return closed.future().isComplete();
  }

  Future<Short> closed() {
    return closed.future();
  }

  Future<Void> close() {
    Future<Void> closing = isClosed() ? Future.succeededFuture() : socket.close();
    return closing.otherwiseEmpty().compose(done -> client.close());
  }
}
