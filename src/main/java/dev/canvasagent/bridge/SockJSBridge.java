package dev.canvasagent.bridge;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.BridgeEvent;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;
import io.vertx.ext.web.handler.sockjs.SockJSSocket;
import io.vertx.ext.web.handler.sockjs.Transport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SockJS event-bus bridge at {@code /eventbus}, for browsers using the official
 * {@code @vertx/eventbus-bridge-client.js}. It denies by default. The bridge's event hook decides, per
 * socket, what a browser may do:
 *
 * <ul>
 *   <li><b>register</b> the outbound topics of one room, {@code room.<roomId>.<topic>}. The first
 *       registration fixes the socket's room and joins it to the {@link RoomHub} as a
 *       {@link SockJSClient}, so host election, acks and resume work as for the other transports. A
 *       socket may host once it has registered {@code agent:action} and
 *       {@code agent:screenshot_request}.
 *   <li><b>send / publish</b> only {@code agent:ack}, {@code agent:screenshot}, {@code canvas:viewport}
 *       and {@code canvas:change} of that room. {@link InboundFrames} checks and handles each, as it does
 *       for a WebSocket frame. The browser's message itself never reaches the bus (see
 *       {@link SockJSMessages}).
 *   <li>The bridge never delivers bus messages itself (RECEIVE is refused). The room writes its events
 *       to its clients, so every client of a room gets them in one order, and screenshot requests,
 *       viewport moves and ack re-sends go to the host alone.
 * </ul>
 *
 * A refusal is the bridge's own {@code {type:"err", body:"rejected"}}. When the browser sent with a
 * reply handler, that handler first gets the reason: {@code {failureType:"RECIPIENT_FAILURE",
 * failureCode, message:"<CODE>: <why>"}}. An accepted send gets the reply {@code {ok:true}}.
 */
final class SockJSBridge {
  private static final Logger LOG = LoggerFactory.getLogger(SockJSBridge.class);

  /** What a browser may register: the room hub's topics plus the two the bridge itself sends. */
  static final List<RoomTopic> OUTBOUND =
      Stream.concat(
              RoomHub.OUTBOUND.stream(), Stream.of(RoomTopic.CANVAS_HOST, RoomTopic.CANVAS_RESYNC))
          .toList();

  /** What a browser may send. */
  static final List<RoomTopic> INBOUND =
      List.of(
          RoomTopic.AGENT_ACK,
          RoomTopic.AGENT_SCREENSHOT,
          RoomTopic.CANVAS_VIEWPORT,
          RoomTopic.CANVAS_CHANGE);

  /** The outbound permission: a room's outbound topics, any room (the hook keeps a socket to one). */
  static final String OUTBOUND_ADDRESSES =
      "room\\."
          + RoomId.CHARACTERS
          + "\\.("
          + OUTBOUND.stream().map(RoomTopic::wireName).collect(Collectors.joining("|"))
          + ")";

  /** The official client's reply addresses are UUIDs; the bridge refuses longer ones too. */
  static final int MAX_REPLY_ADDRESS_LENGTH = 36;

  static final int MAX_ADDRESS_LENGTH = 128;

  private final Vertx vertx;
  private final RoomHub hub;
  private final InboundFrames inbound;
  private final EdgeLimits limits;
  private final AppConfig.Bridge config;
  private final int heartbeatMs;
  private final SockJSAuthorization authorization;
  private final SockJSMessages messages;
  private final Map<SockJSSocket, SockJSClient> clients = new HashMap<>();

  /** {@code heartbeatMs}: how often SockJS shows a session is alive, as the other streams do. */
  SockJSBridge(
      Vertx vertx,
      RoomHub hub,
      InboundFrames inbound,
      EdgeLimits limits,
      AppConfig.Bridge config,
      int heartbeatMs,
      Optional<AccessTokens> tokens) {
    this.vertx = vertx;
    this.hub = hub;
    this.inbound = inbound;
    this.limits = limits;
    this.config = config;
    this.heartbeatMs = heartbeatMs;
    this.authorization = new SockJSAuthorization(vertx, tokens);
    this.messages = new SockJSMessages(inbound, config, authorization);
  }

  /** The SockJS routes, to mount with {@code router.route("/eventbus/*").subRouter(...)}. */
  Router router() {
    // Transports beyond the ones the tests drive with the official client stay off. JSONP would
    // need form-encoded bodies; the event-source and htmlfile transports add nothing that xhr does
    // not cover. The heartbeat is the event streams' (SockJS's own default is 25 s): a streaming
    // connection then has traffic well within the idle timeout, and a poll is answered well within
    // it.
    SockJSHandlerOptions sockJs =
        new SockJSHandlerOptions()
            .setHeartbeatInterval(heartbeatMs)
            .addDisabledTransport(Transport.EVENT_SOURCE.name())
            .addDisabledTransport(Transport.HTML_FILE.name())
            .addDisabledTransport(Transport.JSON_P.name());
    SockJSBridgeOptions bridge =
        new SockJSBridgeOptions()
            .addOutboundPermitted(new PermittedOptions().setAddressRegex(OUTBOUND_ADDRESSES))
            .addInboundPermitted(
                new PermittedOptions().setAddress(Address.BRIDGE_SOCKJS_HANDLED.address()))
            .setMaxHandlersPerSocket(OUTBOUND.size())
            .setMaxAddressLength(MAX_ADDRESS_LENGTH);
    return SockJSHandler.create(vertx, sockJs).bridge(bridge, this::onBridgeEvent);
  }

  /** Every bridge event is completed here, at once or when its message has been handled. */
  void onBridgeEvent(BridgeEvent event) {
    SockJSClient client = clients.get(event.socket());
    switch (event.type()) {
      case SOCKET_CREATED -> created(event);
      case REGISTER -> register(event, client);
      case UNREGISTER -> unregister(event, client);
      case SEND, PUBLISH -> messages.take(event, client);
      // The room writes to its clients itself. The bridge still subscribes each registration on the
      // bus (that is how it keeps track of them), and what those consumers receive is dropped here.
      case RECEIVE -> event.complete(false);
      case SOCKET_CLOSED, SOCKET_ERROR -> {
        closed(event.socket());
        event.complete(true);
      }
      // SOCKET_IDLE: no ping within the ping timeout; completing with true lets the bridge close
      // it.
      default -> event.complete(true);
    }
  }

  /** A new connection, unless its address already has as many open as it may: then it is told why and closed. */
  private void created(BridgeEvent event) {
    EdgeLimits.Hold hold = new EdgeLimits.Hold();
    Optional<RateLimit.Over> crowded = limits.openSocket(event.socket().remoteAddress(), hold);
    if (crowded.isPresent()) {
      limits.counted(crowded.get());
      event
          .socket()
          .write(
              new JsonObject()
                  .put("type", "err")
                  .put("body", "rejected")
                  .put("failureCode", FailureCode.RATE_LIMITED.wire())
                  .put("failureType", "RECIPIENT_FAILURE")
                  .put("message", FailureCode.RATE_LIMITED.name() + ": " + crowded.get().message())
                  .encode());
      LOG.atInfo()
          .addKeyValue("type", event.type())
          .addKeyValue("code", FailureCode.RATE_LIMITED.name())
          .log("sockjs.refused");
      // The bridge closes a socket whose creation is refused.
      event.complete(false);
      return;
    }
    SockJSClient client =
        new SockJSClient(
            event.socket(),
            "sockjs-" + UUID.randomUUID(),
            config.maxMessageBytes(),
            new MessageRate(config.messagesPerSecond()));
    hold.add(CanvasMetrics.of(vertx).streamOpened(CanvasMetrics.Transport.SOCKJS));
    client.holds(hold);
    clients.put(event.socket(), client);
    event.complete(true);
  }

  private void register(BridgeEvent event, SockJSClient client) {
    Optional<RoomAddress> address =
        RoomAddress.parse(event.getRawMessage().getValue("address"))
            .filter(candidate -> OUTBOUND.contains(candidate.topic()));
    if (client == null || address.isEmpty()) {
      SockJSAnswers.refuse(
          event,
          client,
          null,
          InboundFrames.Refusal.of(
              FailureCode.NOT_PERMITTED,
              "browsers may register only "
                  + OUTBOUND.stream()
                      .map(topic -> "room.<roomId>." + topic.wireName())
                      .collect(Collectors.joining(", "))));
      return;
    }
    String roomId = address.get().roomId();
    RoomTopic topic = address.get().topic();
    if (client.roomId() != null && !client.roomId().equals(roomId)) {
      SockJSAnswers.refuse(
          event,
          client,
          null,
          InboundFrames.Refusal.of(
              FailureCode.OTHER_ROOM, "this connection belongs to room " + client.roomId()));
      return;
    }
    authorization
        .authorize(event, client, roomId, Role.VIEWER)
        .onComplete(
            authorized -> {
              if (authorized.failed()) {
                SockJSAnswers.refuse(
                    event, client, null, SockJSAnswers.refusal(authorized.cause()));
              } else if (!client.isClosed()) {
                register(event, client, roomId, topic, authorized.result());
              } else {
                event.complete(false);
              }
            });
  }

  private void register(
      BridgeEvent event, SockJSClient client, String roomId, RoomTopic topic, Grant grant) {
    Future<Room> settled;
    if (client.roomId() == null) {
      // The first registration joins the room: one more room for this client, unless it has too
      // many.
      String limitKey = limits.client(grant, event.socket().remoteAddress());
      Optional<RateLimit.Over> crowded = limits.joinRoom(limitKey, roomId, client.hold());
      if (crowded.isPresent()) {
        // Told on the address being registered, so the page's handler for it hears why.
        SockJSAnswers.refuse(event, client, topic.address(roomId), limits.refusal(crowded.get()));
        return;
      }
      client.limitKey(limitKey);
      client.register(topic);
      join(event, client, roomId);
      settled = client.room();
    } else {
      client.register(topic);
      settled = client.room().compose(room -> room.hostingChanged(client.clientId()).map(room));
    }
    if (topic == RoomTopic.CANVAS_HOST) {
      // After the owner has taken in what this registration changed: the hello names the host.
      settled.onSuccess(
          room ->
              client.deliver(
                  new RoomEvent(
                      null,
                      RoomTopic.CANVAS_HOST,
                      new JsonObject()
                          .put("type", "canvas:hello")
                          .put("roomId", roomId)
                          .put("clientId", client.clientId())
                          .put("hostClientId", room.hostId().orElse(null))
                          .put("latestEventId", room.latestEventId()))));
    }
    event.complete(true);
  }

  /** The socket's first registration: its room, and its place in the room (resumed with {@code headers.lastEventId}). */
  private void join(BridgeEvent event, SockJSClient client, String roomId) {
    JsonObject headers =
        event.getRawMessage().getValue("headers") instanceof JsonObject given
            ? given
            : new JsonObject();
    String lastEventId =
        headers.getValue("lastEventId") instanceof String given && !given.isEmpty() ? given : null;
    client.joining(roomId, lastEventId != null);
    client.joined(hub.join(roomId, client, lastEventId));
    client
        .room()
        .onComplete(
            joined -> {
              if (joined.failed()) {
                client.close("could not join the room");
              } else if (client.isClosed()) {
                // It left while joining: take it out of the room it was just put in.
                joined.result().leave(client.clientId());
                hub.leave(roomId, client.clientId());
              }
            });
  }

  private void unregister(BridgeEvent event, SockJSClient client) {
    Optional<RoomAddress> address = RoomAddress.parse(event.getRawMessage().getValue("address"));
    if (client == null) {
      // The socket is closing: the bridge drops its registrations; nothing is left to do here.
      event.complete(true);
    } else if (address.isPresent() && address.get().roomId().equals(client.roomId())) {
      client.unregister(address.get().topic());
      client.room().onSuccess(room -> room.hostingChanged(client.clientId()));
      event.complete(true);
    } else {
      SockJSAnswers.refuse(
          event,
          client,
          null,
          InboundFrames.Refusal.of(
              FailureCode.NOT_PERMITTED, "not an address this connection registered"));
    }
  }

  private void closed(SockJSSocket socket) {
    SockJSClient client = clients.remove(socket);
    if (client != null) {
      client.hold().release();
      client.markClosed();
      if (client.roomId() != null) {
        hub.leave(client.roomId(), client.clientId());
      }
    }
  }
}
