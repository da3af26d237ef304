package dev.canvasagent.bridge;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.HostPresence;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RoomViewports;
import dev.canvasagent.bus.RoomViewports.ClientViewport;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients of one room on this node, in the order they joined, and what the room needs to serve
 * them the same way: the host (the first client that can answer; when it leaves, the next), the
 * replay buffer, the latest viewport of each client, and the acks the host still owes. Every client
 * gets the room's events in one order; screenshot requests and viewport moves go to the host only.
 */
final class Room {
  private static final Logger LOG = LoggerFactory.getLogger(Room.class);
  static final Set<RoomTopic> REPLAYED =
      Set.of(
          RoomTopic.AGENT_ACTION,
          RoomTopic.AGENT_CHAT,
          RoomTopic.AGENT_STATUS,
          RoomTopic.CANVAS_CHANGE);

  private final Vertx vertx;
  private final String roomId;
  private final AppConfig.Bridge config;
  private final Map<String, RoomClient> clients = new LinkedHashMap<>();
  private final Map<String, ClientViewport> viewports = new HashMap<>();
  private final Map<String, PendingAck> pendingAcks = new LinkedHashMap<>();
  private final Map<String, Long> lastSeqBySession = new HashMap<>();
  private final ReplayBuffer replay;
  private String hostId;

  /** An envelope the host has not acked yet. */
  private static final class PendingAck {
    final RoomEvent event;
    int resent;
    long timerId;

    PendingAck(RoomEvent event) {
      this.event = event;
    }
  }

  Room(Vertx vertx, String roomId, String incarnationId, AppConfig.Bridge config) {
    this.vertx = vertx;
    this.roomId = roomId;
    this.config = config;
    this.replay = new ReplayBuffer(incarnationId, config.replayEvents());
  }

  String roomId() {
    return roomId;
  }

  boolean isEmpty() {
    return clients.isEmpty();
  }

  int size() {
    return clients.size();
  }

  Optional<String> hostId() {
    return Optional.ofNullable(hostId);
  }

  String latestEventId() {
    return replay.latestId();
  }

  /** The events after {@code lastEventId}, or empty when the client must be resynced instead. */
  Optional<List<RoomEvent>> missedSince(String lastEventId) {
    return replay.after(lastEventId);
  }

  void join(RoomClient client) {
    clients.put(client.clientId(), client);
    if (hostId == null && client.canHost()) {
      electHost(client.clientId());
    }
  }

  void leave(String clientId) {
    if (clients.remove(clientId) == null) {
      return;
    }
    viewports.remove(clientId);
    if (clientId.equals(hostId)) {
      forgetHost();
      electNextHost();
    }
  }

  /**
   * A client's {@link RoomClient#canHost} changed: a SockJS client registered, or dropped, an address
   * a host must listen to. A room without a host takes it as host. A host that can no longer answer
   * hands over to the next client that can.
   */
  void hostingChanged(String clientId) {
    RoomClient client = clients.get(clientId);
    if (client == null) {
      return;
    }
    if (hostId == null && client.canHost()) {
      electHost(clientId);
    } else if (clientId.equals(hostId) && !client.canHost()) {
      forgetHost();
      electNextHost();
    }
  }

  private void electNextHost() {
    clients.values().stream()
        .filter(RoomClient::canHost)
        .findFirst()
        .ifPresent(next -> electHost(next.clientId()));
  }

  private void electHost(String clientId) {
    hostId = clientId;
    Address.SCREENSHOT_HOSTS.send(vertx.eventBus(), new HostPresence(roomId, clientId, true));
    LOG.atInfo()
        .addKeyValue("roomId", roomId)
        .addKeyValue("clientId", clientId)
        .log("room.host_elected");
    deliverToAll(
        new RoomEvent(
            null,
            RoomTopic.CANVAS_HOST,
            new JsonObject()
                .put("type", "canvas:host")
                .put("roomId", roomId)
                .put("hostClientId", clientId)));
  }

  private void forgetHost() {
    Address.SCREENSHOT_HOSTS.send(vertx.eventBus(), new HostPresence(roomId, hostId, false));
    pendingAcks.values().forEach(pending -> vertx.cancelTimer(pending.timerId));
    pendingAcks.clear();
    hostId = null;
  }

  /**
   * A room topic's message from the event bus, to the clients it is meant for. A partial envelope (an
   * action still being written) is delivered once and forgotten: not replayed to reconnecting clients
   * (the final envelope is, and supersedes it; partials would only crowd finals out of the buffer),
   * and not awaited for an ack, so a host never owes one, is never re-sent one, and never times out
   * on one. Its seq still counts as sent, so a client that acks it anyway is not refused.
   */
  void publish(RoomTopic topic, JsonObject payload) {
    boolean partial =
        topic == RoomTopic.AGENT_ACTION && Boolean.TRUE.equals(payload.getValue("partial"));
    RoomEvent event =
        new RoomEvent(
            REPLAYED.contains(topic) && !partial ? replay.nextId() : null, topic, payload);
    if (event.id() != null) {
      replay.append(event);
    }
    // The ack is expected before the envelope goes out: a host may settle it as it is delivered
    // (a resyncing host whose board already holds it, see covered).
    if (topic == RoomTopic.AGENT_ACTION && hostId != null && config.ackRetries() >= 0) {
      if (partial) {
        noteSent(payload);
      } else {
        expectAck(event);
      }
    }
    if (isHostOnly(event)) {
      deliverToHost(event);
    } else {
      deliverToAll(event);
    }
  }

  /**
   * Screenshot requests and {@code set_viewport} envelopes, which move the host's camera only: the
   * live stream sends them to the host alone, and a replay only to a client that hosts as it resumes.
   */
  private static boolean isHostOnly(RoomEvent event) {
    if (event.topic() == RoomTopic.AGENT_SCREENSHOT_REQUEST) {
      return true;
    }
    if (event.topic() != RoomTopic.AGENT_ACTION) {
      return false;
    }
    JsonArray actions = event.payload().getJsonArray("actions", new JsonArray());
    return !actions.isEmpty()
        && actions.stream()
            .allMatch(action -> "set_viewport".equals(((JsonObject) action).getString("name")));
  }

  /**
   * A client that resumes: what it missed, routed as the live stream routed it, then it joins. Events
   * for the host alone go to it only if it becomes the host as it joins (a room without a host, a
   * client that can answer); any other client never got them live, so it does not get them now.
   */
  void resume(RoomClient client, List<RoomEvent> missed) {
    boolean hosts = hostId == null && client.canHost();
    for (RoomEvent event : missed) {
      if (!hosts && isHostOnly(event)) {
        continue;
      }
      if (!client.deliver(event)) {
        return;
      }
    }
    join(client);
  }

  /**
   * A client whose resync already holds {@code event} skipped it: for the host, that settles the
   * envelope as its ack would, so it is neither re-sent nor reported as {@code ACK_TIMEOUT}.
   */
  void covered(String clientId, RoomEvent event) {
    JsonObject envelope = event.payload();
    if (event.topic() == RoomTopic.AGENT_ACTION && envelope.getValue("seq") instanceof Number seq) {
      ack(clientId, envelope.getString("sessionId"), seq.longValue());
    }
  }

  private void deliverTo(RoomClient client, RoomEvent event) {
    if (!client.deliver(event)) {
      leave(client.clientId());
    }
  }

  private void deliverToHost(RoomEvent event) {
    if (hostId != null) {
      deliverTo(clients.get(hostId), event);
    }
  }

  private void deliverToAll(RoomEvent event) {
    for (RoomClient client : new ArrayList<>(clients.values())) {
      deliverTo(client, event);
    }
  }

  private long noteSent(JsonObject envelope) {
    long seq = envelope.getLong("seq", 0L);
    lastSeqBySession.merge(envelope.getString("sessionId"), seq, Math::max);
    return seq;
  }

  private void expectAck(RoomEvent event) {
    String sessionId = event.payload().getString("sessionId");
    long seq = noteSent(event.payload());
    PendingAck pending = new PendingAck(event);
    pendingAcks.put(ackKey(sessionId, seq), pending);
    arm(pending, sessionId, seq);
  }

  private void arm(PendingAck pending, String sessionId, long seq) {
    pending.timerId =
        vertx.setTimer(
            config.ackTimeoutMs(),
            id -> {
              String key = ackKey(sessionId, seq);
              if (pendingAcks.get(key) != pending) {
                return;
              }
              if (pending.resent < config.ackRetries() && hostId != null) {
                pending.resent++;
                LOG.atInfo()
                    .addKeyValue("roomId", roomId)
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("seq", seq)
                    .addKeyValue("attempt", pending.resent + 1)
                    .log("ack.resend");
                deliverToHost(pending.event);
                if (pendingAcks.get(key) == pending) {
                  arm(pending, sessionId, seq);
                }
                return;
              }
              pendingAcks.remove(key);
              LOG.atWarn()
                  .addKeyValue("roomId", roomId)
                  .addKeyValue("sessionId", sessionId)
                  .addKeyValue("seq", seq)
                  .log("ack.failed");
              new AgentStatus(
                      sessionId,
                      RunState.ERROR,
                      new JsonObject()
                          .put("code", FailureCode.ACK_TIMEOUT.name())
                          .put("seq", seq)
                          .put("clientId", hostId)
                          .put(
                              "reason",
                              "the host did not acknowledge seq "
                                  + seq
                                  + " after "
                                  + (pending.resent + 1)
                                  + " deliveries"))
                  .publish(vertx.eventBus(), roomId);
            });
  }

  /**
   * An ack from a client. The host's settles its pending envelope; other clients' acks are welcome and
   * need nothing. Returns an error text for an ack of a seq this room never sent in that session.
   */
  Optional<String> ack(String clientId, String sessionId, long seq) {
    Long last = lastSeqBySession.get(sessionId);
    if (last == null || seq > last) {
      return Optional.of(
          "no envelope seq " + seq + " was sent in session " + sessionId + " to this room");
    }
    if (clientId.equals(hostId)) {
      PendingAck pending = pendingAcks.remove(ackKey(sessionId, seq));
      if (pending != null) {
        vertx.cancelTimer(pending.timerId);
      }
    }
    return Optional.empty();
  }

  private static String ackKey(String sessionId, long seq) {
    return sessionId + "#" + seq;
  }

  /** A client's latest {@code canvas:viewport}: its bounds, and its selection (null when it sent none). */
  void viewport(String clientId, Viewport bounds, List<String> selection) {
    viewports.put(clientId, new ClientViewport(clientId, false, bounds, selection));
  }

  /** The latest viewport and selection of each client (the host's first), for the context builder. */
  RoomViewports viewports() {
    List<ClientViewport> all = new ArrayList<>();
    ClientViewport host = hostId == null ? null : viewports.get(hostId);
    if (host != null) {
      all.add(new ClientViewport(hostId, true, host.bounds(), host.selection()));
    }
    viewports.forEach(
        (clientId, viewport) -> {
          if (!clientId.equals(hostId)) {
            all.add(viewport);
          }
        });
    return new RoomViewports(roomId, hostId, all);
  }

  void closeAll(String why) {
    List<RoomClient> all = new ArrayList<>(clients.values());
    clients.clear();
    all.forEach(client -> client.close(why));
    if (hostId != null) {
      forgetHost();
    }
  }

  int pendingAcks() {
    return pendingAcks.size();
  }
}
