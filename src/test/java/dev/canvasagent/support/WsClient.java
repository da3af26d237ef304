package dev.canvasagent.support;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/** A real WebSocket client of a room for tests: collects frames, waits for the one it expects, sends frames. */
public final class WsClient {
  private final WebSocketClient client;
  private final List<JsonObject> frames = new ArrayList<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private final Promise<Short> closed = Promise.promise();
  private WebSocket socket;
  private boolean autoAck;

  private record Waiter(Predicate<JsonObject> until, Promise<List<JsonObject>> promise) {}

  private WsClient(WebSocketClient client) {
    this.client = client;
  }

  /** Connects and waits for the server's hello ({@code canvas:host} with {@code type: canvas:hello}). */
  public static Future<WsClient> connect(Vertx vertx, int port, String roomId, String query) {
    return connect(vertx, new WebSocketClientOptions(), port, roomId, query, java.util.Map.of());
  }

  /** With request headers on the upgrade (an {@code Authorization}); a refused upgrade fails with its status. */
  public static Future<WsClient> connect(
      Vertx vertx, int port, String roomId, String query, java.util.Map<String, String> headers) {
    return connect(vertx, new WebSocketClientOptions(), port, roomId, query, headers);
  }

  /** With client options of its own, e.g. a local address to connect from. */
  public static Future<WsClient> connect(
      Vertx vertx, WebSocketClientOptions clientOptions, int port, String roomId, String query) {
    return connect(vertx, clientOptions, port, roomId, query, java.util.Map.of());
  }

  private static Future<WsClient> connect(
      Vertx vertx,
      WebSocketClientOptions clientOptions,
      int port,
      String roomId,
      String query,
      java.util.Map<String, String> headers) {
    WsClient ws = new WsClient(vertx.createWebSocketClient(clientOptions));
    WebSocketConnectOptions options =
        new WebSocketConnectOptions()
            .setHost("127.0.0.1")
            .setPort(port)
            .setURI("/api/rooms/" + roomId + "/ws" + (query == null ? "" : "?" + query));
    headers.forEach(options::addHeader);
    // On a Vert.x context, so the socket's handlers are set in the task that completes the
    // handshake: from a test thread the server's hello could arrive before anyone listens, and be
    // lost.
    Promise<WsClient> connected = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(
            onContext ->
                ws.client
                    .connect(options)
                    .compose(
                        socket -> {
                          ws.socket = socket;
                          socket.textMessageHandler(text -> ws.receive(new JsonObject(text)));
                          socket.closeHandler(
                              end -> ws.closed.tryComplete(socket.closeStatusCode()));
                          return ws.awaitFrame(
                              frame ->
                                  "canvas:hello"
                                      .equals(frame.getJsonObject("payload").getString("type")));
                        })
                    .map(hello -> ws)
                    .onFailure(refused -> ws.client.close())
                    .onComplete(connected));
    return connected.future();
  }

  public static Future<WsClient> connect(Vertx vertx, int port, String roomId) {
    return connect(vertx, port, roomId, null);
  }

  /** Acks every action envelope as soon as it arrives, as a host's executor does after applying it. */
  public WsClient autoAck() {
    autoAck = true;
    return this;
  }

  /** A 1×1 transparent PNG: what a host's screenshot connector answers with here. */
  static final String PIXEL =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

  private synchronized void receive(JsonObject frame) {
    frames.add(frame);
    if ("agent:screenshot_request".equals(frame.getString("topic"))) {
      JsonObject request = frame.getJsonObject("payload");
      JsonObject box = new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1);
      send(
          "agent:screenshot",
          new JsonObject()
              .put("type", "agent:screenshot")
              .put("sessionId", request.getString("sessionId"))
              .put("requestId", request.getString("requestId"))
              .put(
                  "image",
                  new JsonObject().put("mime", "image/png").put("dataUrl", PIXEL).put("bytes", 70))
              .put("bounds", box)
              .put("viewport", box)
              .put("selection", new io.vertx.core.json.JsonArray())
              .put("docVersion", "0"));
    }
    if (autoAck && "agent:action".equals(frame.getString("topic"))) {
      JsonObject envelope = frame.getJsonObject("payload");
      send(
          "agent:ack",
          new JsonObject()
              .put("type", "agent:ack")
              .put("sessionId", envelope.getString("sessionId"))
              .put("seq", envelope.getLong("seq"))
              .put("clientId", clientId()));
    }
    Iterator<Waiter> it = waiters.iterator();
    while (it.hasNext()) {
      Waiter waiter = it.next();
      if (waiter.until().test(frame)) {
        it.remove();
        waiter.promise().complete(List.copyOf(frames));
      }
    }
  }

  public synchronized Future<List<JsonObject>> awaitFrame(Predicate<JsonObject> until) {
    if (frames.stream().anyMatch(until)) {
      return Future.succeededFuture(List.copyOf(frames));
    }
    Promise<List<JsonObject>> promise = Promise.promise();
    waiters.add(new Waiter(until, promise));
    return promise.future();
  }

  public Future<List<JsonObject>> awaitTopic(String topic, Predicate<JsonObject> payload) {
    return awaitFrame(
        frame ->
            topic.equals(frame.getString("topic")) && payload.test(frame.getJsonObject("payload")));
  }

  public synchronized List<JsonObject> received() {
    return List.copyOf(frames);
  }

  public synchronized String clientId() {
    return frames.stream()
        .filter(frame -> "canvas:hello".equals(frame.getJsonObject("payload").getString("type")))
        .findFirst()
        .map(frame -> frame.getJsonObject("payload").getString("clientId"))
        .orElseThrow();
  }

  public void send(String topic, JsonObject payload) {
    socket.writeTextMessage(new JsonObject().put("topic", topic).put("payload", payload).encode());
  }

  public void sendText(String text) {
    socket.writeTextMessage(text);
  }

  /** Completes with the close status when the server closes the connection. */
  public Future<Short> closed() {
    return closed.future();
  }

  public Future<Void> close() {
    return socket.close().compose(done -> client.close());
  }
}
