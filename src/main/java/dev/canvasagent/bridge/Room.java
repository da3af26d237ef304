package dev.canvasagent.bridge;

import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RoomViewports;
import dev.canvasagent.bus.RoomViewports.ClientViewport;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients of one room on this node, in the order they joined, and what the room needs to serve
 * them the same way: the host, the replay buffer, the latest viewport of each client, and the acks
 * the host still owes when it is here. Every client gets the room's events in one order; screenshot
 * requests and viewport moves go to the host only.
 *
 * <p>The room's owner node decides what every node's copy of the room holds ({@link RoomSequencer}):
 * the events, their ids and order come from its stream ({@link #apply}), the replay buffer starts
 * from its ({@link #seed}), and it elects the one host of the room among the clients of every node,
 * which this room tells it of as they join, change and leave ({@link Owner}).
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
  // The host's last publish-to-ack time per session: the apply jitter is the next one's difference.
  private final Map<String, Long> lastApplyNanosBySession = new HashMap<>();
  private final Owner owner;
  private ReplayBuffer replay;
  private String hostId;

  /** Where this room tells its owner of its clients; completes once the owner has taken it in. */
  interface Owner {
    Future<Void> clientChanged(String roomId, RoomClient client, boolean present);
  }

  /** An envelope the host has not acked yet. */
  private static final class PendingAck {
    final RoomEvent event;
    final long expectedAtNanos = System.nanoTime();
    int resent;
    long timerId;

    PendingAck(RoomEvent event) {
      this.event = event;
    }
  }

  Room(Vertx vertx, String roomId, AppConfig.Bridge config, Owner owner) {
    this.vertx = vertx;
    this.roomId = roomId;
    this.config = config;
    this.owner = owner;
    this.replay = new ReplayBuffer("unseeded", config.replayEvents());
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

  /** This node's clients counted by transport ({@code sse}, {@code websocket}, {@code sockjs}), for the admin view. */
  Map<String, Integer> clientsByTransport() {
    Map<String, Integer> counts = new TreeMap<>();
    clients.values().forEach(client -> counts.merge(client.transport(), 1, Integer::sum));
    return counts;
  }

  /** Where the room's stream is, for the admin view: the incarnation, the latest event's number, the events held for resuming and the most it holds. */
  JsonObject replayPosition() {
    return new JsonObject()
        .put("incarnation", replay.incarnationId())
        .put("position", replay.lastNumber())
        .put("latestEventId", replay.latestId())
        .put("held", replay.events().size())
        .put("capacity", config.replayEvents());
  }

  String latestEventId() {
    return replay.latestId();
  }

  /** Whether the host is one of this node's clients: its acks are awaited, and re-sent to, here. */
  private boolean hostHere() {
    return hostId != null && clients.containsKey(hostId);
  }

  /** This node's clients in the order they joined, as a watch names them to the room's owner. */
  List<RoomClientChange> clientsFor(String nodeId) {
    return clients.values().stream()
        .map(
            client ->
                new RoomClientChange(roomId, nodeId, client.clientId(), client.canHost(), true))
        .toList();
  }

  /**
   * Starts (again) from the owner's snapshot: its buffer, its sessions' seqs, its host. Events of the
   * same incarnation this room had not seen yet (a gap in the stream) go to the live clients now; a
   * new incarnation (the room moved to another owner) is taken as it is, and ids of the old one are
   * answered with a resync from then on.
   */
  void seed(RoomSnapshot snapshot) {
    List<RoomEvent> missed =
        snapshot.incarnation().equals(replay.incarnationId())
            ? snapshot.events().stream()
                .filter(event -> replay.numberOf(event.id()) > replay.lastNumber())
                .toList()
            : List.of();
    replay =
        ReplayBuffer.seeded(
            snapshot.incarnation(),
            config.replayEvents(),
            snapshot.latestNumber(),
            snapshot.events());
    snapshot
        .lastSeqBySession()
        .forEach((session, seq) -> lastSeqBySession.merge(session, seq, Math::max));
    missed.forEach(event -> publish(event, false));
    hostIs(snapshot.hostClientId());
  }

  /** The next message of the owner's stream: a room topic's event, or a host change. */
  void apply(Sequenced message) {
    Optional<RoomTopic> topic = RoomTopic.fromWireName(message.topic());
    if (topic.isEmpty() || message.payload() == null) {
      LOG.atWarn()
          .addKeyValue("roomId", roomId)
          .addKeyValue("topic", message.topic())
          .log("room.sequenced_ignored");
      return;
    }
    if (topic.get() == RoomTopic.CANVAS_HOST) {
      hostIs(message.payload().getString("hostClientId"));
      return;
    }
    publish(new RoomEvent(message.eventId(), topic.get(), message.payload()), true);
  }

  /**
   * The owner elected {@code clientId} (null: no client of the room can host). Every client here hears
   * of a new host; acks a host here still owed are dropped with it.
   */
  private void hostIs(String clientId) {
    if (Objects.equals(clientId, hostId)) {
      return;
    }
    if (hostHere()) {
      dropPendingAcks();
    }
    hostId = clientId;
    if (clientId != null) {
      deliverToAll(
          new RoomEvent(
              null,
              RoomTopic.CANVAS_HOST,
              new JsonObject()
                  .put("type", "canvas:host")
                  .put("roomId", roomId)
                  .put("hostClientId", clientId)));
    }
  }

  /** The events after {@code lastEventId}, or empty when the client must be resynced instead. */
  Optional<List<RoomEvent>> missedSince(String lastEventId) {
    return replay.after(lastEventId);
  }

  /**
   * Every client here waits for a {@code canvas:resync} from now on: each is wrapped in a {@link
   * ResyncingClient}, in its place (the order of joining, the host, its acks stay as they were), and
   * gets what comes meanwhile once the wrapper is released. Returns the wrappers, to release.
   */
  List<ResyncingClient> holdForResync() {
    List<ResyncingClient> holding = new ArrayList<>();
    clients.replaceAll(
        (clientId, client) -> {
          ResyncingClient resyncing =
              new ResyncingClient(client, roomId, event -> covered(clientId, event));
          holding.add(resyncing);
          return resyncing;
        });
    return holding;
  }

  /** Completes once the owner knows of the client: it is then the host if it was elected. */
  Future<Void> join(RoomClient client) {
    clients.put(client.clientId(), client);
    return owner.clientChanged(roomId, client, true);
  }

  void leave(String clientId) {
    RoomClient client = clients.remove(clientId);
    if (client == null) {
      return;
    }
    viewports.remove(clientId);
    if (clientId.equals(hostId)) {
      // The owner elects the next host; what this one owed is owed by no one here now.
      dropPendingAcks();
    }
    owner.clientChanged(roomId, client, false);
  }

  /**
   * A client's {@link RoomClient#canHost} changed: a SockJS client registered, or dropped, an address
   * a host must listen to. The owner takes it as host when the room has none, and hands over to the
   * next client that can when the host no longer can. Completes once the owner has decided.
   */
  Future<Void> hostingChanged(String clientId) {
    RoomClient client = clients.get(clientId);
    if (client == null) {
      return Future.succeededFuture();
    }
    return owner.clientChanged(roomId, client, true);
  }

  private void dropPendingAcks() {
    pendingAcks.values().forEach(pending -> vertx.cancelTimer(pending.timerId));
    pendingAcks.clear();
    lastApplyNanosBySession.clear();
  }

  /**
   * An event of the owner's stream, to the clients it is meant for ({@code live}), or one this room
   * missed in a gap of the stream. A partial envelope (an action still being written) has no id: it is
   * delivered once and forgotten, not replayed to reconnecting clients (the final envelope is, and
   * supersedes it), and not awaited for an ack, so a host never owes one, is never re-sent one, and
   * never times out on one. Its seq still counts as sent, so a client that acks it anyway is not
   * refused. Acks are awaited only where the host is.
   */
  private void publish(RoomEvent event, boolean live) {
    RoomTopic topic = event.topic();
    JsonObject payload = event.payload();
    boolean partial =
        topic == RoomTopic.AGENT_ACTION && Boolean.TRUE.equals(payload.getValue("partial"));
    if (live && event.id() != null) {
      replay.append(event);
    }
    // The ack is expected before the envelope goes out: a host may settle it as it is delivered
    // (a resyncing host whose board already holds it, see covered).
    if (topic == RoomTopic.AGENT_ACTION && hostId != null && config.ackRetries() >= 0) {
      if (partial || !hostHere()) {
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
   * client that can answer: the owner will elect it); any other client never got them live, so it
   * does not get them now.
   */
  Future<Void> resume(RoomClient client, List<RoomEvent> missed) {
    boolean hosts = hostId == null && client.canHost();
    for (RoomEvent event : missed) {
      if (!hosts && isHostOnly(event)) {
        continue;
      }
      if (!client.deliver(event)) {
        return Future.succeededFuture();
      }
    }
    return join(client);
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
    if (hostHere()) {
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
              if (pending.resent < config.ackRetries() && hostHere()) {
                pending.resent++;
                LOG.atInfo()
                    .addKeyValue("roomId", roomId)
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("seq", seq)
                    .addKeyValue("attempt", pending.resent + 1)
                    .log("ack.resend");
                CanvasMetrics.of(vertx).ackResent();
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
              CanvasMetrics.of(vertx).ackFailed();
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
        if (pending.resent == 0) {
          hostApplied(sessionId, System.nanoTime() - pending.expectedAtNanos);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Seed 000's apply jitter on the host, as RFC 3550 measures a stream's: how much this envelope's
   * publish-to-ack time differs from the one before it in the session. A re-sent envelope's time says
   * more about the timeout than about the host, so it is left out.
   */
  private void hostApplied(String sessionId, long applyNanos) {
    Long before = lastApplyNanosBySession.put(sessionId, applyNanos);
    CanvasMetrics.of(vertx)
        .hostApplied(applyNanos, before == null ? -1 : Math.abs(applyNanos - before));
  }

  private static String ackKey(String sessionId, long seq) {
    return sessionId + "#" + seq;
  }

  /** A client's latest {@code canvas:viewport}: its bounds, and its selection (null when it sent none). */
  void viewport(String clientId, Viewport bounds, List<String> selection) {
    viewports.put(clientId, new ClientViewport(clientId, false, bounds, selection));
  }

  /**
   * The latest viewport and selection of each client here (the host's first, when it is here); the
   * room's owner gathers every node's for the context builder ({@link Sequencers#viewports}).
   */
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

  /** The server stops: its clients are closed; the owner hears that this node left the cluster. */
  void closeAll(String why) {
    List<RoomClient> all = new ArrayList<>(clients.values());
    clients.clear();
    all.forEach(client -> client.close(why));
    dropPendingAcks();
  }

  int pendingAcks() {
    return pendingAcks.size();
  }
}
