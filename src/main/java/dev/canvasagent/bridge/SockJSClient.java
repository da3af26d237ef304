package dev.canvasagent.bridge;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Grant;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.sockjs.SockJSSocket;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A browser on the SockJS event-bus bridge ({@code /eventbus}), over whichever SockJS transport it
 * got. Its first registration fixes its room. It receives the room's events as the bridge's
 * {@code rec} messages, only on the addresses it registered, in the order the room sends them. The
 * room writes them to the socket itself, so events for the host alone (screenshot requests, viewport
 * moves, ack re-sends) reach only the host. It can be the room's host once it listens to envelopes and
 * screenshot requests.
 *
 * <p>The client may hold at most {@code maxPendingChars} characters that the socket has accepted but
 * its connection has not yet taken. This covers a poll that has not come yet as well as a full TCP
 * window. A client that cannot keep up is closed (a slow consumer), never buffered without bound.
 */
final class SockJSClient implements RoomClient {
  private static final Logger LOG = LoggerFactory.getLogger(SockJSClient.class);

  /** What a client must listen to before it can host its room. */
  static final Set<RoomTopic> HOST_TOPICS =
      EnumSet.of(RoomTopic.AGENT_ACTION, RoomTopic.AGENT_SCREENSHOT_REQUEST);

  private final SockJSSocket socket;
  private final String clientId;
  private final int maxPendingChars;
  private final MessageRate rate;
  private final Set<RoomTopic> registered = EnumSet.noneOf(RoomTopic.class);
  private String roomId;
  private Future<Room> joined;
  private boolean catchingUp;
  private long pendingChars;
  private boolean closed;
  private boolean mayEdit;

  /** The last token this connection presented and its grant, so a page's every message is not verified anew. */
  private String lastToken;

  private Grant lastGrant;
  private long expiryTimer = -1;
  private Vertx timers;

  /** Its share of the open-connection counts, and the client its messages count against once joined. */
  private EdgeLimits.Hold hold = new EdgeLimits.Hold();

  private String limitKey;

  SockJSClient(SockJSSocket socket, String clientId, int maxPendingChars, MessageRate rate) {
    this.socket = socket;
    this.clientId = clientId;
    this.maxPendingChars = maxPendingChars;
    this.rate = rate;
    socket.setWriteQueueMaxSize(maxPendingChars);
  }

  @Override
  public String clientId() {
    return clientId;
  }

  @Override
  public String transport() {
    return "sockjs";
  }

  /**
   * A host acks envelopes and answers screenshot requests, so a SockJS client can host once it listens
   * to both. A host that never sees the requests would stall every run by the screenshot timeout.
   */
  @Override
  public boolean canHost() {
    return mayEdit && registered.containsAll(HOST_TOPICS);
  }

  /** From the token of its latest accepted registration or message. */
  @Override
  public boolean mayEdit() {
    return mayEdit;
  }

  void mayEdit(boolean mayEdit) {
    this.mayEdit = mayEdit;
  }

  /** The room of its first registration, or null before it registered anything. */
  String roomId() {
    return roomId;
  }

  /**
   * Its first registration: the room is fixed from here on. A resuming client is being caught up until
   * {@link #joined} completes. Until then it gets every event it missed, also those on addresses it has
   * not registered yet: the official client registers all its handlers locally before any reply arrives.
   */
  void joining(String roomId, boolean resuming) {
    this.roomId = roomId;
    this.catchingUp = resuming;
  }

  void joined(Future<Room> join) {
    this.joined = join.andThen(done -> catchingUp = false);
  }

  /** The room once joined: inbound messages wait for it. */
  Future<Room> room() {
    return joined;
  }

  MessageRate rate() {
    return rate;
  }

  void holds(EdgeLimits.Hold hold) {
    this.hold = hold;
  }

  EdgeLimits.Hold hold() {
    return hold;
  }

  void limitKey(String limitKey) {
    this.limitKey = limitKey;
  }

  @Override
  public String limitKey() {
    return limitKey == null ? clientId : limitKey;
  }

  void register(RoomTopic topic) {
    registered.add(topic);
  }

  void unregister(RoomTopic topic) {
    registered.remove(topic);
  }

  boolean isClosed() {
    return closed;
  }

  @Override
  public boolean deliver(RoomEvent event) {
    if (!catchingUp && !registered.contains(event.topic())) {
      return !closed;
    }
    return writeText(event.sockJsText(roomId));
  }

  /** One bridge message ({@code rec}, {@code err}) to the browser; false when it is gone or too slow. */
  boolean write(JsonObject message) {
    return writeText(message.encode());
  }

  private boolean writeText(String text) {
    if (closed) {
      return false;
    }
    if (pendingChars >= maxPendingChars || socket.writeQueueFull()) {
      LOG.atWarn()
          .addKeyValue("roomId", roomId)
          .addKeyValue("clientId", clientId)
          .addKeyValue("pendingChars", pendingChars)
          .log("sockjs.slow_consumer_disconnected");
      close("slow consumer");
      return false;
    }
    pendingChars += text.length();
    socket.write(text).onComplete(written -> pendingChars -= text.length());
    return true;
  }

  @Override
  public void close(String why) {
    if (!closed) {
      closed = true;
      LOG.atDebug()
          .addKeyValue("roomId", roomId)
          .addKeyValue("clientId", clientId)
          .addKeyValue("why", why)
          .log("sockjs.closing");
      socket.close();
    }
  }

  /** The socket closed (by the browser, the network, the bridge's ping timeout or {@link #close}). */
  void markClosed() {
    closed = true;
    if (timers != null) {
      timers.cancelTimer(expiryTimer);
    }
  }

  /** The grant of {@code token}: the last one's again while it has not expired, else verified. */
  Future<Grant> verified(String token, AccessTokens tokens) {
    if (token.equals(lastToken) && !lastGrant.expired(System.currentTimeMillis())) {
      return Future.succeededFuture(lastGrant);
    }
    return tokens
        .verify(token)
        .onSuccess(
            grant -> {
              lastToken = token;
              lastGrant = grant;
            });
  }

  /** Closes the connection when {@code grant} expires, unless a later token moves that on. */
  void expiresAt(Vertx vertx, Grant grant) {
    if (grant.expiry().isEmpty() || closed) {
      return;
    }
    timers = vertx;
    vertx.cancelTimer(expiryTimer);
    expiryTimer =
        vertx.setTimer(
            Math.max(1, grant.expiresAtMillis() - System.currentTimeMillis()),
            expired -> close("the access token has expired"));
  }
}
