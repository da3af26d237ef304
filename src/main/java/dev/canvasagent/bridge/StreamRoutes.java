package dev.canvasagent.bridge;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A room's live streams: {@code GET /api/rooms/{roomId}/events} (Server-Sent Events, read only) and
 * {@code /ws} (WebSocket, both ways). Each joins the room in the {@link RoomHub}, counts against the
 * client's and the room's stream limits while open ({@link EdgeLimits#openStream}), and resumes after
 * the event id the client last saw. The SockJS bridge is the third way in ({@link SockJSBridge}).
 */
final class StreamRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(StreamRoutes.class);

  private final Vertx vertx;
  private final RoomHub hub;
  private final InboundFrames inbound;
  private final EdgeLimits limits;
  private final AppConfig.Bridge bridge;
  private final int heartbeatMs;

  /** {@code heartbeatMs}: how often a quiet stream gets a heartbeat comment or a ping. */
  StreamRoutes(
      Vertx vertx,
      RoomHub hub,
      InboundFrames inbound,
      EdgeLimits limits,
      AppConfig.Bridge bridge,
      int heartbeatMs) {
    this.vertx = vertx;
    this.hub = hub;
    this.inbound = inbound;
    this.limits = limits;
    this.bridge = bridge;
    this.heartbeatMs = heartbeatMs;
  }

  void mount(Router router) {
    router.get("/api/rooms/:roomId/events").handler(this::events);
    router.get("/api/rooms/:roomId/ws").handler(this::webSocket);
  }

  private void events(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    EdgeLimits.Hold hold = limits.openStream(ctx, roomId);
    if (hold == null) {
      return;
    }
    hold.add(CanvasMetrics.of(vertx).streamOpened(CanvasMetrics.Transport.SSE));
    String clientId = "sse-" + UUID.randomUUID();
    long[] expiry = {-1};
    SseStream stream =
        new SseStream(
            vertx,
            ctx.response(),
            roomId,
            clientId,
            () -> {
              hold.release();
              vertx.cancelTimer(expiry[0]);
              hub.leave(roomId, clientId);
            });
    stream.open();
    expiry[0] = closeAtExpiry(EdgeAccess.grant(ctx), stream);
    hub.join(roomId, stream, ctx.request().getHeader("last-event-id"))
        .onSuccess(joined -> stream.greet(heartbeatMs))
        .onFailure(error -> stream.close("could not join the room"));
  }

  /** {@code /api/rooms/{roomId}/ws}: frames {@code {topic, payload}} both ways; {@code ?lastEventId=} resumes. */
  private void webSocket(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    Grant grant = EdgeAccess.grant(ctx);
    EdgeLimits.Hold hold = limits.openStream(ctx, roomId);
    if (hold == null) {
      return;
    }
    hold.add(CanvasMetrics.of(vertx).streamOpened(CanvasMetrics.Transport.WEBSOCKET));
    String limitKey = limits.client(ctx);
    String lastEventId = ctx.request().getParam("lastEventId");
    ctx.request()
        .toWebSocket()
        .onFailure(notUpgraded -> hold.release())
        .onSuccess(
            socket -> {
              String clientId = "ws-" + UUID.randomUUID();
              WebSocketClient client =
                  new WebSocketClient(
                      socket, roomId, clientId, grant.allowsRoom(roomId, Role.EDITOR), limitKey);
              long expiry = closeAtExpiry(grant, client);
              // Browsers answer pings on their own: a quiet room's socket then has traffic every
              // heartbeat and outlives the idle timeout, as an event stream does with its heartbeat
              // comments.
              long pings = vertx.setPeriodic(heartbeatMs, tick -> client.ping());
              MessageRate rate = new MessageRate(bridge.messagesPerSecond());
              socket.closeHandler(
                  closed -> {
                    hold.release();
                    vertx.cancelTimer(expiry);
                    vertx.cancelTimer(pings);
                    client.markClosed();
                    hub.leave(roomId, clientId);
                  });
              socket.exceptionHandler(
                  error -> {
                    LOG.atInfo()
                        .addKeyValue("roomId", roomId)
                        .addKeyValue("clientId", clientId)
                        .addKeyValue("error", String.valueOf(error.getMessage()))
                        .log("ws.error");
                    // Vert.x reports a message over the size limit as an error and keeps reading,
                    // and a single frame over it as a corrupt frame; the protocol says 1009 for
                    // both.
                    if (String.valueOf(error.getMessage()).contains("max message size")
                        || error instanceof CorruptedWebSocketFrameException corrupt
                            && corrupt.closeStatus() == WebSocketCloseStatus.MESSAGE_TOO_BIG) {
                      client.closeTooBig(bridge.maxMessageBytes());
                    }
                  });
              socket.binaryMessageHandler(
                  bytes ->
                      client.sendDirect(
                          RoomTopic.ERROR,
                          InboundFrames.Refusal.of(
                                  FailureCode.INVALID_FRAME, "send JSON text frames, not binary")
                              .payload()));
              socket.pause();
              hub.join(roomId, client, lastEventId)
                  .onComplete(
                      joined -> {
                        if (joined.failed()) {
                          client.close("could not join the room");
                          return;
                        }
                        Room room = joined.result();
                        client.sendDirect(
                            RoomTopic.CANVAS_HOST,
                            new JsonObject()
                                .put("type", "canvas:hello")
                                .put("roomId", roomId)
                                .put("clientId", clientId)
                                .put("hostClientId", room.hostId().orElse(null))
                                .put("latestEventId", room.latestEventId()));
                        socket.textMessageHandler(
                            text -> {
                              if (!rate.tryTake()) {
                                client.sendDirect(
                                    RoomTopic.ERROR,
                                    InboundFrames.Refusal.of(
                                            FailureCode.RATE_LIMITED,
                                            "more than "
                                                + bridge.messagesPerSecond()
                                                + " messages a second; this one was dropped")
                                        .payload());
                                return;
                              }
                              inbound
                                  .handleText(client, room, text)
                                  .onSuccess(
                                      outcome -> {
                                        if (outcome instanceof InboundFrames.Refusal refusal) {
                                          client.sendDirect(RoomTopic.ERROR, refusal.payload());
                                        }
                                      });
                            });
                        socket.resume();
                      });
            });
  }

  /** A stream opened with a token ends when the token does: the client reconnects with a fresh one. */
  private long closeAtExpiry(Grant grant, RoomClient client) {
    return grant
        .expiry()
        .map(
            expiresAt ->
                vertx.setTimer(
                    Math.max(1, expiresAt - System.currentTimeMillis()),
                    expired -> client.close("the access token has expired")))
        .orElse(-1L);
  }
}
