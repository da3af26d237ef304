package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A browser on {@code /api/rooms/{roomId}/ws}: JSON text frames {@code {topic, payload, id?}} both
 * ways. It can ack and answer screenshots, so it can be the room's host. A client whose write queue is
 * full is closed (1013, try again later) rather than buffered without bound.
 */
final class WebSocketClient implements RoomClient {
  private static final Logger LOG = LoggerFactory.getLogger(WebSocketClient.class);
  static final short TRY_AGAIN_LATER = 1013;
  static final short GOING_AWAY = 1001;
  static final short MESSAGE_TOO_BIG = 1009;

  private final ServerWebSocket socket;
  private final String roomId;
  private final String clientId;
  private final boolean mayEdit;
  private final String limitKey;
  private boolean closed;

  WebSocketClient(
      ServerWebSocket socket, String roomId, String clientId, boolean mayEdit, String limitKey) {
    this.socket = socket;
    this.roomId = roomId;
    this.clientId = clientId;
    this.mayEdit = mayEdit;
    this.limitKey = limitKey;
  }

  @Override
  public String limitKey() {
    return limitKey;
  }

  @Override
  public String clientId() {
    return clientId;
  }

  @Override
  public String transport() {
    return "websocket";
  }

  @Override
  public boolean canHost() {
    return mayEdit;
  }

  @Override
  public boolean mayEdit() {
    return mayEdit;
  }

  @Override
  public boolean deliver(RoomEvent event) {
    return sendText(event.frameText());
  }

  /** A frame that is not a room event: hello, refusals. */
  void sendDirect(RoomTopic topic, JsonObject payload) {
    send(new JsonObject().put("topic", topic.wireName()).put("payload", payload));
  }

  private boolean send(JsonObject frame) {
    return sendText(frame.encode());
  }

  private boolean sendText(String text) {
    if (closed) {
      return false;
    }
    if (socket.writeQueueFull()) {
      LOG.atWarn()
          .addKeyValue("roomId", roomId)
          .addKeyValue("clientId", clientId)
          .log("ws.slow_consumer_disconnected");
      close(TRY_AGAIN_LATER, "slow consumer");
      return false;
    }
    socket.writeTextMessage(text);
    return true;
  }

  @Override
  public void close(String why) {
    close(GOING_AWAY, why);
  }

  private void close(short status, String why) {
    if (!closed) {
      closed = true;
      socket.close(status, why.length() > 100 ? why.substring(0, 100) : why);
    }
  }

  void closeTooBig(int limit) {
    close(MESSAGE_TOO_BIG, "messages are limited to " + limit + " bytes");
  }

  /** A ping frame, which the browser answers with a pong. */
  void ping() {
    if (!closed) {
      socket.writePing(Buffer.buffer());
    }
  }

  void markClosed() {
    closed = true;
  }
}
