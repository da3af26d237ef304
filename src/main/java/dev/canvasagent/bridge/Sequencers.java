package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RoomViewports;
import dev.canvasagent.bus.RoomViewports.ClientViewport;
import dev.canvasagent.cluster.ClusterView;
import io.vertx.core.Future;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rooms this node owns and sequences for the cluster, one {@link RoomSequencer} each. A room is
 * sequenced here from the first node's {@link RoomWatch} until no node watches it here: when the
 * members change and another node owns it, the watching nodes move to that one (which starts an
 * incarnation of its own) and unwatch here one by one. Its raw
 * topic messages, from whatever node published them, become one ordered stream sent to every
 * watching node. Everything runs on the bridge's event loop.
 */
final class Sequencers {
  private static final Logger LOG = LoggerFactory.getLogger(Sequencers.class);

  private final ClusterLink link;
  private final ClusterView cluster;
  private final int replayEvents;
  private final Consumer<Sequenced> here;
  private final Map<String, Active> rooms = new HashMap<>();

  /** A room sequenced here, and its subscription to the room's raw topics. */
  private static final class Active {
    final RoomSequencer sequencer;
    final List<MessageConsumer<JsonObject>> raw = new ArrayList<>();
    Future<Void> listening;

    Active(RoomSequencer sequencer) {
      this.sequencer = sequencer;
    }
  }

  /**
   * {@code here}: this node's own rooms ({@link RoomHub#sequenced}), which get the stream of the rooms
   * this node owns directly, without a trip through the bus to itself.
   */
  Sequencers(ClusterLink link, ClusterView cluster, int replayEvents, Consumer<Sequenced> here) {
    this.link = link;
    this.cluster = cluster;
    this.replayEvents = replayEvents;
    this.here = here;
  }

  /**
   * A node watches a room: from now on it gets the room's stream; it is answered, once this node
   * listens to the room's topics, with where the stream is.
   */
  Future<RoomSnapshot> watch(RoomWatch watch) {
    Active active = rooms.computeIfAbsent(watch.roomId(), this::start);
    return active.listening.compose(
        listening -> {
          if (rooms.get(watch.roomId()) != active) {
            return Future.failedFuture("room " + watch.roomId() + " moved while it was watched");
          }
          if (active.sequencer.watch(watch.nodeId(), watch.clients())) {
            hostChanged(active);
          }
          return Future.succeededFuture(active.sequencer.snapshot());
        });
  }

  private Active start(String roomId) {
    // Each incarnation numbers its events afresh, under an id of its own.
    Active active =
        new Active(
            new RoomSequencer(
                roomId, link.nodeId(), UUID.randomUUID().toString().substring(0, 8), replayEvents));
    for (RoomTopic topic : RoomHub.OUTBOUND) {
      active.raw.add(
          link.listen(
              topic,
              roomId,
              (payload, messageId) -> {
                if (rooms.get(roomId) == active) {
                  dispatch(active, active.sequencer.sequence(topic, payload, messageId));
                }
              }));
    }
    active.listening =
        Future.all(active.raw.stream().map(MessageConsumer::completion).toList()).mapEmpty();
    LOG.atInfo()
        .addKeyValue("roomId", roomId)
        .addKeyValue("incarnation", active.sequencer.incarnation())
        .log("room.sequencing_started");
    return active;
  }

  private void dispatch(Active active, Sequenced message) {
    for (String node : active.sequencer.watchers()) {
      if (node.equals(link.nodeId())) {
        here.accept(message);
      } else {
        link.send(node, ClusterLink.Op.SEQUENCED, message);
      }
    }
  }

  /**
   * The host changed: the room's stream carries it. Every node hears who it is from the room's owner;
   * not from this node while the room moves away from it, where only the nodes that still take this
   * node's stream need to know.
   */
  private void hostChanged(Active active) {
    RoomHost host = active.sequencer.host();
    boolean owned = cluster.owns(host.roomId());
    LOG.atInfo()
        .addKeyValue("roomId", host.roomId())
        .addKeyValue("clientId", host.clientId())
        .addKeyValue("nodeId", host.nodeId())
        .addKeyValue("owned", owned)
        .log(host.clientId() == null ? "room.host_none" : "room.host_elected");
    if (owned) {
      link.announce(host);
    }
    dispatch(active, active.sequencer.hostChange());
  }

  /**
   * A client of a room joined, changed or left on some node. Answers where the stream is once what
   * the change made (a host change) is in it: the node waits for its stream to get there, so what it
   * then tells the client (a hello naming the host) is what the stream says. The bus keeps the order
   * of messages to one address only, not of a reply behind them.
   */
  Future<JsonObject> client(RoomClientChange change) {
    Active active = rooms.get(change.roomId());
    if (active == null) {
      // The room moved (or stopped) since the node watched: its new watch will name its clients.
      LOG.atDebug()
          .addKeyValue("roomId", change.roomId())
          .addKeyValue("nodeId", change.nodeId())
          .log("room.client_change_not_sequenced");
      return Future.succeededFuture(new JsonObject());
    }
    if (active.sequencer.client(change)) {
      hostChanged(active);
    }
    return Future.succeededFuture(
        new JsonObject()
            .put("incarnation", active.sequencer.incarnation())
            .put("position", active.sequencer.position()));
  }

  /** A node no longer serves the room; without watchers the room stops here. */
  void unwatch(RoomWatch watch) {
    Active active = rooms.get(watch.roomId());
    if (active == null) {
      return;
    }
    if (active.sequencer.unwatch(watch.nodeId())) {
      hostChanged(active);
    }
    if (active.sequencer.unwatched()) {
      stop(watch.roomId(), "unwatched");
    }
  }

  /**
   * The members changed: the watches and clients of nodes that left go, and a host among them is
   * replaced. A room another node owns now is still sequenced here for the nodes that watch it here,
   * until each has watched the new owner (and unwatched here): their clients go on meanwhile.
   */
  void membersChanged(List<String> members) {
    for (Map.Entry<String, Active> entry : List.copyOf(rooms.entrySet())) {
      String roomId = entry.getKey();
      Active active = entry.getValue();
      if (active.sequencer.membersChanged(members)) {
        hostChanged(active);
      }
      if (active.sequencer.unwatched()) {
        stop(roomId, cluster.owns(roomId) ? "unwatched" : "moved");
      }
    }
  }

  private void stop(String roomId, String why) {
    Active active = rooms.remove(roomId);
    if (!"shutdown".equals(why)
        && cluster.owns(roomId)
        && active.sequencer.host().clientId() != null) {
      // Its last watcher left without telling of its clients: no one hosts the room now.
      link.announce(RoomHost.none(roomId));
    }
    active.raw.forEach(MessageConsumer::unregister);
    LOG.atInfo()
        .addKeyValue("roomId", roomId)
        .addKeyValue("incarnation", active.sequencer.incarnation())
        .addKeyValue("reason", why)
        .log("room.sequencing_stopped");
  }

  /**
   * The viewports of the room's clients on every watching node, the host's first. A node that does not
   * answer in time is left out: a run's context goes on with what the others said.
   */
  Future<RoomViewports> viewports(RoomRef ask) {
    Active active = rooms.get(ask.roomId());
    if (active == null) {
      return Future.succeededFuture(new RoomViewports(ask.roomId(), null, List.of()));
    }
    String hostId = active.sequencer.host().clientId();
    List<Future<RoomViewports>> perNode =
        active.sequencer.watchers().stream()
            .map(
                node ->
                    link.request(node, ClusterLink.Op.NODE_VIEWPORTS, ask)
                        .map(RoomViewports::fromJson)
                        .otherwise(new RoomViewports(ask.roomId(), null, List.of())))
            .toList();
    return Future.all(perNode)
        .map(
            answered -> {
              List<ClientViewport> all = new ArrayList<>();
              List<ClientViewport> others = new ArrayList<>();
              for (Future<RoomViewports> node : perNode) {
                for (ClientViewport viewport : node.result().viewports()) {
                  if (viewport.clientId().equals(hostId)) {
                    all.add(
                        new ClientViewport(
                            viewport.clientId(), true, viewport.bounds(), viewport.selection()));
                  } else {
                    others.add(
                        new ClientViewport(
                            viewport.clientId(), false, viewport.bounds(), viewport.selection()));
                  }
                }
              }
              all.addAll(others);
              return new RoomViewports(ask.roomId(), hostId, all);
            });
  }

  /** The hosts of the rooms sequenced here, for a node that starts and asks. */
  JsonObject hosts() {
    JsonArray hosts = new JsonArray();
    rooms.values().stream()
        .map(active -> active.sequencer.host())
        .filter(host -> host.clientId() != null)
        .forEach(host -> hosts.add(host.toJson()));
    return new JsonObject().put("hosts", hosts);
  }

  /**
   * For the bridge's health: each room sequenced here, its stream and its clients per node, and
   * whether it is still this node's ({@code owned: false} while its watchers move to its new owner).
   */
  JsonObject health() {
    JsonObject sequenced = new JsonObject();
    new TreeMap<>(rooms)
        .forEach(
            (roomId, active) ->
                sequenced.put(
                    roomId, active.sequencer.health().put("owned", cluster.owns(roomId))));
    return sequenced;
  }

  /** This node stops: the rooms' next owners announce their hosts. */
  void stopAll() {
    List.copyOf(rooms.keySet()).forEach(roomId -> stop(roomId, "shutdown"));
  }
}
