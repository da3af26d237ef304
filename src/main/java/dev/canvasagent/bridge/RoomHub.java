package dev.canvasagent.bridge;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.BoardSnapshot;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
          RoomTopic.DOC_LEASE,
          RoomTopic.DOC_REVISION);

  /** How long an empty room keeps listening and buffering, so a client that reconnects can resume. */
  static final long LINGER_MS = 60_000;

  /**
   * How often a node asks a room's owner, {@link #WATCH_RETRY_MS} apart, before the room's clients are
   * turned away: for a room's first watch (its clients wait), and when the room moves to another owner
   * (its clients go on with the old owner's stream meanwhile, so the new owner may take a while to
   * start its bridge).
   */
  static final int WATCH_ATTEMPTS = 25;

  static final int MOVE_ATTEMPTS = 300;

  static final long WATCH_RETRY_MS = 200;

  /**
   * How long a client's join waits for the room's stream to reach what the owner's answer says (the
   * host it elected): a stream that does not get there in time is late, not wrong.
   */
  static final long STREAM_WAIT_MS = 2_000;

  /** How many of the latest messages' publisher ids a room remembers, to deliver each once. */
  static final int RECENT_MESSAGES = 1_024;

  private final Vertx vertx;
  private final AppConfig.Bridge config;
  private final ClusterView cluster;
  private final ClusterLink link;
  private final Map<String, Subscribed> rooms = new HashMap<>();

  /**
   * A room served here and where its stream is: the owner whose stream it takes ({@code owner}), the
   * incarnation and position of the last message taken, the publisher ids of the latest messages; and
   * while a watch is under way, the owner watched and its messages that arrived before its answer.
   */
  private static final class Subscribed {
    final Room room;

    /** Its first watch: clients join once it is answered. */
    Future<Void> ready;

    /** The latest watch: a room that moves (or missed a message) is watched again meanwhile. */
    Future<Void> watched;

    long lingerTimer = -1;
    String owner;
    String watching;
    String incarnation;
    long position;
    List<Sequenced> held = new ArrayList<>();
    final Set<String> recentMessages = new LinkedHashSet<>();
    final List<Awaited> awaited = new ArrayList<>();
    int watches;

    Subscribed(Room room) {
      this.room = room;
    }

    Room room() {
      return room;
    }
  }

  /** A position of the stream something waits for. */
  private record Awaited(String incarnation, long position, Promise<Void> reached, long timer) {}

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
                        holding.release(resync(room, board), board.revision());
                        return room;
                      });
          return known.compose(told -> resynced);
        });
  }

  /** The {@code canvas:resync} that brings a client level with {@code board}. */
  private static RoomEvent resync(Room room, BoardSnapshot board) {
    return new RoomEvent(
        null,
        RoomTopic.CANVAS_RESYNC,
        new JsonObject()
            .put("type", "canvas:resync")
            .put("roomId", room.roomId())
            .put("revision", board.revision())
            .put("records", board.records())
            .put("latestEventId", room.latestEventId()));
  }

  private Subscribed subscribe(String roomId) {
    Subscribed subscribed = new Subscribed(new Room(vertx, roomId, config, this::tellOwner));
    subscribed.ready = watch(roomId, subscribed, WATCH_ATTEMPTS);
    return subscribed;
  }

  /**
   * Watches the room at its owner, again and again while the owner has no bridge yet or does not
   * answer; the owner's answer (the replay buffer, the stream's position, the host) seeds the room, and
   * the owner's messages held meanwhile follow it. A watch that cannot reach the owner turns the room's
   * clients away: they reconnect, and are served once the cluster has settled.
   */
  private Future<Void> watch(String roomId, Subscribed subscribed, int attempts) {
    int watch = ++subscribed.watches;
    subscribed.held = new ArrayList<>();
    Promise<Void> seeded = Promise.promise();
    subscribed.watched = seeded.future();
    attempt(roomId, subscribed, watch, 1, attempts, seeded);
    return seeded.future();
  }

  private void attempt(
      String roomId,
      Subscribed subscribed,
      int watch,
      int attempt,
      int attempts,
      Promise<Void> seeded) {
    String owner = cluster.ownerOf(roomId);
    subscribed.watching = owner;
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
                subscribed.watched.onComplete(seeded);
              } else if (answered.succeeded()) {
                seed(roomId, subscribed, answered.result());
                seeded.complete();
              } else if (attempt < attempts) {
                LOG.atDebug()
                    .addKeyValue("roomId", roomId)
                    .addKeyValue("owner", owner)
                    .addKeyValue("attempt", attempt)
                    .addKeyValue("error", String.valueOf(answered.cause().getMessage()))
                    .log("room.watch_retry");
                vertx.setTimer(
                    WATCH_RETRY_MS,
                    id -> attempt(roomId, subscribed, watch, attempt + 1, attempts, seeded));
              } else {
                LOG.atError()
                    .addKeyValue("roomId", roomId)
                    .addKeyValue("owner", owner)
                    .addKeyValue("attempts", attempt)
                    .addKeyValue("error", String.valueOf(answered.cause().getMessage()))
                    .log("room.watch_failed");
                rooms.remove(roomId);
                vertx.cancelTimer(subscribed.lingerTimer);
                subscribed.room().closeAll("the room's owner node cannot be reached");
                unwatch(roomId, subscribed.owner);
                seeded.fail("the owner of room " + roomId + " cannot be reached");
              }
            });
  }

  /**
   * The watched owner answered: the room takes its stream from now on, from the answer's position; the
   * owner it took it from before, if another, is told this node no longer watches there.
   */
  private void seed(String roomId, Subscribed subscribed, RoomSnapshot snapshot) {
    String previous = subscribed.owner;
    boolean newIncarnation =
        subscribed.incarnation != null && !subscribed.incarnation.equals(snapshot.incarnation());
    subscribed.room().seed(snapshot);
    subscribed.owner = snapshot.ownerNode();
    subscribed.watching = null;
    subscribed.incarnation = snapshot.incarnation();
    subscribed.position = snapshot.position();
    if (newIncarnation) {
      // Before the new stream's first message: the live clients take it behind their resync.
      resyncLiveClients(subscribed.room(), snapshot.incarnation());
    }
    List<Sequenced> held = subscribed.held;
    subscribed.held = new ArrayList<>();
    held.forEach(message -> follow(subscribed, message));
    settle(subscribed);
    if (previous != null
        && !previous.equals(subscribed.owner)
        && cluster.members().contains(previous)) {
      unwatch(roomId, previous);
    }
  }

  /**
   * The room's stream switched to a new incarnation (another owner) while clients here were live.
   * Whatever was published between the old owner's last message that reached this node and the new
   * owner's subscription (the old owner dying or leaving, the new one not listening yet, a publisher
   * that had not heard of the new one) reached no client, and nothing here tells which it was: every
   * live client is resynced, exactly as a reconnect from an id no buffer can continue from. The board
   * is read once the new owner listens (its answer came first), so what the new stream carries at or
   * below that revision is left out for them ({@link ResyncingClient}), and what it carries above is
   * delivered after the resync, in order. A board that cannot be read sends the clients away to
   * reconnect, which resyncs them too.
   */
  private void resyncLiveClients(Room room, String incarnation) {
    List<ResyncingClient> holding = room.holdForResync();
    if (holding.isEmpty()) {
      return;
    }
    LOG.atInfo()
        .addKeyValue("roomId", room.roomId())
        .addKeyValue("incarnation", incarnation)
        .addKeyValue("clients", holding.size())
        .log("room.handover_resync");
    Address.PATCH_BOARD_GET
        .ask(vertx.eventBus(), BoardRef.current(room.roomId()))
        .onComplete(
            board -> {
              if (board.succeeded()) {
                RoomEvent resync = resync(room, board.result());
                holding.forEach(client -> client.release(resync, board.result().revision()));
                return;
              }
              LOG.atWarn()
                  .addKeyValue("roomId", room.roomId())
                  .addKeyValue("error", String.valueOf(board.cause().getMessage()))
                  .log("room.handover_resync_failed");
              holding.forEach(
                  client -> {
                    room.leave(client.clientId());
                    client.close("the room's board could not be read after its owner changed");
                  });
            });
  }

  /** A message of a room's stream from its owner. */
  void sequenced(Sequenced message) {
    Subscribed subscribed = rooms.get(message.roomId());
    if (subscribed == null) {
      return;
    }
    if (message.ownerNode().equals(subscribed.watching)) {
      // From the owner being watched: after its answer.
      subscribed.held.add(message);
    } else {
      follow(subscribed, message);
    }
  }

  /** The next message of the stream the room takes; another's (an owner it left) is dropped. */
  private void follow(Subscribed subscribed, Sequenced message) {
    if (!message.incarnation().equals(subscribed.incarnation)
        || message.position() <= subscribed.position) {
      return;
    }
    if (message.position() != subscribed.position + 1) {
      LOG.atWarn()
          .addKeyValue("roomId", message.roomId())
          .addKeyValue("expected", subscribed.position + 1)
          .addKeyValue("position", message.position())
          .log("room.stream_gap");
      if (subscribed.watching == null) {
        watch(message.roomId(), subscribed, WATCH_ATTEMPTS);
      }
      if (message.ownerNode().equals(subscribed.watching)) {
        subscribed.held.add(message);
      }
      return;
    }
    subscribed.position = message.position();
    if (message.messageId() == null || remember(subscribed, message.messageId())) {
      subscribed.room().apply(message);
    }
    // (Otherwise delivered already, from the stream of the owner the room moved from.)
    settle(subscribed);
  }

  /** Completes what waited for the stream to get where it is now, or to another incarnation. */
  private void settle(Subscribed subscribed) {
    subscribed.awaited.removeIf(
        awaited -> {
          if (awaited.incarnation().equals(subscribed.incarnation)
              && awaited.position() > subscribed.position) {
            return false;
          }
          vertx.cancelTimer(awaited.timer());
          awaited.reached().tryComplete();
          return true;
        });
  }

  /** Completes once the room's stream has reached {@code position} of {@code incarnation}. */
  private Future<Void> reached(Subscribed subscribed, String incarnation, long position) {
    if (incarnation == null
        || !incarnation.equals(subscribed.incarnation)
        || position <= subscribed.position) {
      return Future.succeededFuture();
    }
    Promise<Void> reached = Promise.promise();
    long timer =
        vertx.setTimer(
            STREAM_WAIT_MS,
            id -> {
              if (reached.tryComplete()) {
                LOG.atInfo()
                    .addKeyValue("incarnation", incarnation)
                    .addKeyValue("position", position)
                    .addKeyValue("at", subscribed.position)
                    .log("room.stream_late");
              }
            });
    subscribed.awaited.add(new Awaited(incarnation, position, reached, timer));
    return reached.future();
  }

  /** False when the room delivered this publisher's message already. */
  private static boolean remember(Subscribed subscribed, String messageId) {
    if (!subscribed.recentMessages.add(messageId)) {
      return false;
    }
    if (subscribed.recentMessages.size() > RECENT_MESSAGES) {
      Iterator<String> oldest = subscribed.recentMessages.iterator();
      oldest.next();
      oldest.remove();
    }
    return true;
  }

  /**
   * The members changed: a room whose owner is now another node is watched there. Its clients go on
   * with the stream they have until the new owner answers, and then with the new owner's.
   */
  void membersChanged(List<String> members) {
    rooms.forEach(
        (roomId, subscribed) -> {
          String owner = cluster.ownerOf(roomId);
          String current = subscribed.watching != null ? subscribed.watching : subscribed.owner;
          if (owner.equals(current)) {
            return;
          }
          LOG.atInfo()
              .addKeyValue("roomId", roomId)
              .addKeyValue("from", current)
              .addKeyValue("to", owner)
              .log("room.owner_moved");
          watch(roomId, subscribed, MOVE_ATTEMPTS);
        });
  }

  /**
   * Tells the room's owner of a client (and, while the room moves, the owner it moves to); a lost
   * message is made up by the next watch, which names the clients.
   */
  private Future<Void> tellOwner(String roomId, RoomClient client, boolean present) {
    Subscribed subscribed = rooms.get(roomId);
    if (subscribed == null) {
      return Future.succeededFuture();
    }
    RoomClientChange change =
        new RoomClientChange(roomId, link.nodeId(), client.clientId(), client.canHost(), present);
    Future<Void> told = Future.succeededFuture();
    for (String owner : new LinkedHashSet<>(Arrays.asList(subscribed.owner, subscribed.watching))) {
      if (owner == null) {
        continue;
      }
      Future<Void> telling =
          link.request(owner, ClusterLink.Op.CLIENT, change)
              .compose(
                  where ->
                      reached(
                          subscribed,
                          where.getString("incarnation"),
                          where.getLong("position", 0L)))
              .recover(
                  error -> {
                    LOG.atWarn()
                        .addKeyValue("roomId", roomId)
                        .addKeyValue("owner", owner)
                        .addKeyValue("error", String.valueOf(error.getMessage()))
                        .log("room.owner_unreachable");
                    return Future.succeededFuture();
                  });
      // The stream the room takes now says who hosts: its owner's answer is the one to wait for.
      if (owner.equals(subscribed.owner) || subscribed.owner == null) {
        told = telling;
      }
    }
    return told;
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
                  unwatch(roomId, subscribed.owner);
                  unwatch(roomId, subscribed.watching);
                }
              });
    }
  }

  private void unwatch(String roomId, String owner) {
    if (owner != null) {
      link.send(owner, ClusterLink.Op.UNWATCH, new RoomWatch(roomId, link.nodeId(), List.of()));
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
          for (String owner : Arrays.asList(subscribed.owner, subscribed.watching)) {
            if (owner != null && !link.nodeId().equals(owner)) {
              unwatch(entry.getKey(), owner);
            }
          }
        });
  }
}
