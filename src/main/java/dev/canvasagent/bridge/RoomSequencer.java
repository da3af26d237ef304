package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A room as its owner node keeps it for the whole cluster: the one numbering of its events (an
 * incarnation of its own, then {@code <incarnation>-<n>}), the replay buffer every node copies, the
 * nodes that watch it, and every client of the room on any node in the order the owner heard of them,
 * from which it elects the one host: the first that can answer, and when that one leaves, can no
 * longer answer or its node leaves the cluster, the next.
 */
final class RoomSequencer {
  private final String roomId;
  private final String ownerNode;
  private final ReplayBuffer replay;
  private final Map<String, Long> lastSeqBySession = new HashMap<>();
  private final Set<String> watchers = new LinkedHashSet<>();
  private final Map<String, RoomClientChange> clients = new LinkedHashMap<>();
  private long position;
  private String hostClientId;

  RoomSequencer(String roomId, String ownerNode, String incarnation, int replayEvents) {
    this.roomId = roomId;
    this.ownerNode = ownerNode;
    this.replay = new ReplayBuffer(incarnation, replayEvents);
  }

  String incarnation() {
    return replay.incarnationId();
  }

  /** The position of the stream's latest message. */
  long position() {
    return position;
  }

  /**
   * A room topic's message, numbered when browsers may resume after it: every event {@link
   * Room#REPLAYED} lists except a partial envelope, which is delivered once and never replayed.
   */
  Sequenced sequence(RoomTopic topic, JsonObject payload, String messageId) {
    // A chat delta is like a partial envelope: the message's final text supersedes it.
    boolean partial =
        topic == RoomTopic.AGENT_ACTION && Boolean.TRUE.equals(payload.getValue("partial"))
            || topic == RoomTopic.AGENT_CHAT && payload.containsKey("delta");
    String eventId = Room.REPLAYED.contains(topic) && !partial ? replay.nextId() : null;
    if (eventId != null) {
      replay.append(new RoomEvent(eventId, topic, payload));
    }
    if (topic == RoomTopic.AGENT_ACTION && payload.getValue("seq") instanceof Number seq) {
      lastSeqBySession.merge(payload.getString("sessionId"), seq.longValue(), Math::max);
    }
    return next(eventId, topic, payload, messageId);
  }

  private Sequenced next(String eventId, RoomTopic topic, JsonObject payload, String messageId) {
    return new Sequenced(
        roomId,
        ownerNode,
        incarnation(),
        ++position,
        eventId,
        topic.wireName(),
        payload,
        messageId);
  }

  /** A node watches the room with these clients; false when it changed nothing about the host. */
  boolean watch(String nodeId, List<RoomClientChange> nodeClients) {
    watchers.add(nodeId);
    nodeClients.forEach(client -> clients.put(client.clientId(), client));
    return reelect();
  }

  /** A node no longer watches: its clients are gone with it. Whether the host changed. */
  boolean unwatch(String nodeId) {
    watchers.remove(nodeId);
    clients.values().removeIf(client -> client.nodeId().equals(nodeId));
    return reelect();
  }

  /** A client joined, changed whether it can host, or left. Whether the host changed. */
  boolean client(RoomClientChange change) {
    if (change.present()) {
      // A client keeps its place in the order when only its hosting changes.
      clients.put(change.clientId(), change);
    } else {
      clients.remove(change.clientId());
    }
    return reelect();
  }

  /** The members now: watchers and clients of nodes that left are dropped. Whether the host changed. */
  boolean membersChanged(List<String> members) {
    watchers.retainAll(members);
    clients.values().removeIf(client -> !members.contains(client.nodeId()));
    return reelect();
  }

  private boolean reelect() {
    String before = hostClientId;
    RoomClientChange host = hostClientId == null ? null : clients.get(hostClientId);
    if (host == null || !host.canHost()) {
      hostClientId =
          clients.values().stream()
              .filter(RoomClientChange::canHost)
              .map(RoomClientChange::clientId)
              .findFirst()
              .orElse(null);
    }
    return !Objects.equals(before, hostClientId);
  }

  /** The host change as the stream carries it: {@code canvas:host}, its client null when none hosts. */
  Sequenced hostChange() {
    return next(
        null,
        RoomTopic.CANVAS_HOST,
        new JsonObject()
            .put("type", RoomTopic.CANVAS_HOST.wireName())
            .put("roomId", roomId)
            .put("hostClientId", hostClientId),
        null);
  }

  RoomHost host() {
    RoomClientChange host = hostClientId == null ? null : clients.get(hostClientId);
    return host == null
        ? RoomHost.none(roomId)
        : new RoomHost(roomId, host.clientId(), host.nodeId());
  }

  Set<String> watchers() {
    return Set.copyOf(watchers);
  }

  boolean unwatched() {
    return watchers.isEmpty();
  }

  RoomSnapshot snapshot() {
    return new RoomSnapshot(
        roomId,
        ownerNode,
        incarnation(),
        position,
        replay.lastNumber(),
        replay.events(),
        lastSeqBySession,
        hostClientId);
  }

  /** For the bridge's health: the stream's place, the host, and the clients on each node. */
  JsonObject health() {
    Map<String, Integer> clientsByNode = new TreeMap<>();
    watchers.forEach(node -> clientsByNode.put(node, 0));
    clients.values().forEach(client -> clientsByNode.merge(client.nodeId(), 1, Integer::sum));
    JsonObject byNode = new JsonObject();
    clientsByNode.forEach(byNode::put);
    return new JsonObject()
        .put("incarnation", incarnation())
        .put("latestEventId", replay.latestId())
        .put("hostClientId", hostClientId)
        .put("clientsByNode", byNode);
  }
}
