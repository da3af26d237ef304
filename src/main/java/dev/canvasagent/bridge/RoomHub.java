package dev.canvasagent.bridge;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rooms this node's bridge serves. A room is watched at its owner node (the cluster's rendezvous
 * owner of the room's id; this node itself when it is alone) when its first client joins here: the
 * owner numbers the room's events for the whole cluster and sends them here in one order
 * ({@link Sequencers}), and this node's copy of the room starts from the owner's replay buffer, so an
 * event has the same id on every node and a client resumes on any node with an id it got on another.
 * When the members change and another node owns the room, the room is watched there, from that
 * owner's new incarnation. A room stops being watched a while after its last client here left.
 * Everything runs on the bridge's event loop.
 */
final class RoomHub {
  private static final Logger LOG = LoggerFactory.getLogger(RoomHub.class);

  /** The room's outbound topics: what the server sends to browsers. */
  static final List<RoomTopic> OUTBOUND =
      List.of(
          RoomTopic.AGENT_ACTION,
          RoomTopic.AGENT_CHAT,
          RoomTopic.AGENT_STATUS,
          RoomTopic.AGENT_SCREENSHOT_REQUEST,
          RoomTopic.CANVAS_CHANGE,
          RoomTopic.DOC_LEASE);

  /** How long an empty room keeps listening and buffering, so a client that reconnects can resume. */
  static final long LINGER_MS = 60_000;

  /** How often, and how far apart, a node asks a room's owner before its clients are turned away. */
  static final int WATCH_ATTEMPTS = 25;

  static final long WATCH_RETRY_MS = 200;

  private final Vertx vertx;
  private final AppConfig.Bridge config;
  private final ClusterView cluster;
  private final ClusterLink link;
  private final Map<String, Subscribed> rooms = new HashMap<>();

  /**
   * A room served here and where its stream is: the owner watched, the incarnation and position of the
   * last message taken; while a watch is under way, the messages that arrived before its answer.
   */
  private static final class Subscribed {
    final Room room;
    Future<Void> ready;
    long lingerTimer = -1;
    String owner;
    String incarnation;
    long position;
    List<Sequenced> held = new ArrayList<>();
    int watches;

    Subscribed(Room room) {
      this.room = room;
    }

    Room room() {
      return room;
    }
  }

  RoomHub(Vertx vertx, AppConfig.Bridge config, ClusterView cluster, ClusterLink link) {
    this.vertx = vertx;
    this.config = config;
    this.cluster = cluster;
    this.link = link;
  }

  /**
   * Joins a client to a room. With {@code lastEventId} (a reconnect) it first gets what it missed from
   * the replay buffer or, when that cannot continue from there, a {@code canvas:resync} with the board;
   * live events wait behind either, so nothing arrives out of order. Completes once the room's owner
   * knows of the client (and has elected it host, if it is the first that can answer).
   */
  Future<Room> join(String roomId, RoomClient client, String lastEventId) {
    Subscribed subscribed = rooms.computeIfAbsent(roomId, this::subscribe);
    vertx.cancelTimer(subscribed.lingerTimer);
    return subscribed.ready.compose(
        ready -> {
          Room room = subscribed.room();
          if (lastEventId == null) {
            return room.join(client).map(room);
          }
          Optional<List<RoomEvent>> missed = room.missedSince(lastEventId);
          if (missed.isPresent()) {
            return room.resume(client, missed.get()).map(room);
          }
          ResyncingClient holding =
              new ResyncingClient(
                  client, roomId, covered -> room.covered(client.clientId(), covered));
          Future<Void> known = room.join(holding);
          Future<Room> resynced =
              Address.PATCH_BOARD_GET
                  .ask(vertx.eventBus(), BoardRef.current(roomId))
                  .map(
                      board -> {
                        JsonObject resync =
                            new JsonObject()
                                .put("type", "canvas:resync")
                                .put("roomId", roomId)
                                .put("revision", board.revision())
                                .put("records", board.records())
                                .put("latestEventId", room.latestEventId());
                        holding.release(
                            new RoomEvent(null, RoomTopic.CANVAS_RESYNC, resync), board.revision());
                        return room;
                      });
          return known.compose(told -> resynced);
        });
  }

  private Subscribed subscribe(String roomId) {
    Subscribed subscribed = new Subscribed(new Room(vertx, roomId, config, this::tellOwner));
    subscribed.ready = watch(roomId, subscribed);
    return subscribed;
  }

  /**
   * Watches the room at its owner, again and again while the owner has no bridge yet or does not
   * answer; the owner's answer (the replay buffer, the stream's position, the host) seeds the room, and
   * the messages held meanwhile follow it. A watch that cannot reach any owner turns the room's clients
   * away: they reconnect, and are served once the cluster has settled.
   */
  private Future<Void> watch(String roomId, Subscribed subscribed) {
    int watch = ++subscribed.watches;
    if (subscribed.held == null) {
      subscribed.held = new ArrayList<>();
    }
    Promise<Void> seeded = Promise.promise();
    attempt(roomId, subscribed, watch, 1, seeded);
    return seeded.future();
  }

  private void attempt(
      String roomId, Subscribed subscribed, int watch, int attempt, Promise<Void> seeded) {
    String owner = cluster.ownerOf(roomId);
    subscribed.owner = owner;
    link.request(
            owner,
            ClusterLink.Op.WATCH,
            new RoomWatch(roomId, link.nodeId(), subscribed.room().clientsFor(link.nodeId())))
        .map(RoomSnapshot::fromJson)
        .onComplete(
            answered -> {
              if (rooms.get(roomId) != subscribed) {
                seeded.tryFail("room " + roomId + " closed while it was watched");
              } else if (subscribed.watches != watch) {
                // A later watch (the owner moved again) decides.
                subscribed.ready.onComplete(seeded);
              } else if (answered.succeeded()) {
                seed(subscribed, answered.result());
                seeded.complete();
              } else if (attempt < WATCH_ATTEMPTS) {
                LOG.atDebug()
                    .addKeyValue("roomId", roomId)
                    .addKeyValue("owner", owner)
                    .addKeyValue("attempt", attempt)
                    .addKeyValue("error", String.valueOf(answered.cause().getMessage()))
                    .log("room.watch_retry");
                vertx.setTimer(
                    WATCH_RETRY_MS, id -> attempt(roomId, subscribed, watch, attempt + 1, seeded));
              } else {
                LOG.atError()
                    .addKeyValue("roomId", roomId)
                    .addKeyValue("owner", owner)
                    .addKeyValue("attempts", attempt)
                    .addKeyValue("error", String.valueOf(answered.cause().getMessage()))
                    .log("room.watch_failed");
                rooms.remove(roomId);
                subscribed.room().closeAll("the room's owner node cannot be reached");
                seeded.fail("the owner of room " + roomId + " cannot be reached");
              }
            });
  }

  private void seed(Subscribed subscribed, RoomSnapshot snapshot) {
    subscribed.room().seed(snapshot);
    subscribed.owner = snapshot.ownerNode();
    subscribed.incarnation = snapshot.incarnation();
    subscribed.position = snapshot.position();
    List<Sequenced> held = subscribed.held;
    subscribed.held = null;
    held.forEach(message -> take(subscribed, message));
  }

  /** A message of a room's stream from its owner. */
  void sequenced(Sequenced message) {
    Subscribed subscribed = rooms.get(message.roomId());
    if (subscribed != null) {
      take(subscribed, message);
    }
  }

  private void take(Subscribed subscribed, Sequenced message) {
    if (subscribed.held != null) {
      subscribed.held.add(message);
      return;
    }
    if (!message.incarnation().equals(subscribed.incarnation)
        || message.position() <= subscribed.position) {
      // Another owner's (the room moved and that one has not heard yet), or one already taken.
      return;
    }
    if (message.position() != subscribed.position + 1) {
      LOG.atWarn()
          .addKeyValue("roomId", message.roomId())
          .addKeyValue("expected", subscribed.position + 1)
          .addKeyValue("position", message.position())
          .log("room.stream_gap");
      subscribed.ready = watch(message.roomId(), subscribed);
      subscribed.held.add(message);
      return;
    }
    subscribed.position = message.position();
    subscribed.room().apply(message);
  }

  /** The members changed: a room whose owner is now another node is watched there. */
  void membersChanged(List<String> members) {
    rooms.forEach(
        (roomId, subscribed) -> {
          String owner = cluster.ownerOf(roomId);
          if (owner.equals(subscribed.owner)) {
            return;
          }
          if (subscribed.owner != null && members.contains(subscribed.owner)) {
            link.send(
                subscribed.owner,
                ClusterLink.Op.UNWATCH,
                new RoomWatch(roomId, link.nodeId(), List.of()));
          }
          LOG.atInfo()
              .addKeyValue("roomId", roomId)
              .addKeyValue("from", subscribed.owner)
              .addKeyValue("to", owner)
              .log("room.owner_moved");
          subscribed.ready = watch(roomId, subscribed);
        });
  }

  /** Tells the room's owner of a client; a lost message is made up by the next watch. */
  private Future<Void> tellOwner(String roomId, RoomClient client, boolean present) {
    Subscribed subscribed = rooms.get(roomId);
    if (subscribed == null || subscribed.owner == null) {
      return Future.succeededFuture();
    }
    return link.request(
            subscribed.owner,
            ClusterLink.Op.CLIENT,
            new RoomClientChange(
                roomId, link.nodeId(), client.clientId(), client.canHost(), present))
        .<Void>mapEmpty()
        .recover(
            error -> {
              LOG.atWarn()
                  .addKeyValue("roomId", roomId)
                  .addKeyValue("owner", subscribed.owner)
                  .addKeyValue("error", String.valueOf(error.getMessage()))
                  .log("room.owner_unreachable");
              return Future.succeededFuture();
            });
  }

  void leave(String roomId, String clientId) {
    Subscribed subscribed = rooms.get(roomId);
    if (subscribed == null) {
      return;
    }
    subscribed.room().leave(clientId);
    if (subscribed.room().isEmpty()) {
      vertx.cancelTimer(subscribed.lingerTimer);
      subscribed.lingerTimer =
          vertx.setTimer(
              LINGER_MS,
              id -> {
                if (subscribed.room().isEmpty() && rooms.get(roomId) == subscribed) {
                  rooms.remove(roomId);
                  unwatch(roomId, subscribed);
                }
              });
    }
  }

  private void unwatch(String roomId, Subscribed subscribed) {
    if (subscribed.owner != null) {
      link.send(
          subscribed.owner,
          ClusterLink.Op.UNWATCH,
          new RoomWatch(roomId, link.nodeId(), List.of()));
    }
  }

  Optional<Room> room(String roomId) {
    return Optional.ofNullable(rooms.get(roomId)).map(Subscribed::room);
  }

  int clients() {
    return rooms.values().stream().mapToInt(subscribed -> subscribed.room().size()).sum();
  }

  int rooms() {
    return rooms.size();
  }

  /** Envelopes sent to a host that it has not acked yet, over every room. */
  int pendingAcks() {
    return rooms.values().stream().mapToInt(subscribed -> subscribed.room().pendingAcks()).sum();
  }

  void closeAll(String why) {
    List<Map.Entry<String, Subscribed>> all = new ArrayList<>(rooms.entrySet());
    rooms.clear();
    all.forEach(
        entry -> {
          Subscribed subscribed = entry.getValue();
          vertx.cancelTimer(subscribed.lingerTimer);
          subscribed.room().closeAll(why);
          // This node's own sequencers stop with it; another owner hears it now rather than when
          // the node leaves the cluster.
          if (!link.nodeId().equals(subscribed.owner)) {
            unwatch(entry.getKey(), subscribed);
          }
        });
  }
}
