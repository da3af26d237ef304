package dev.canvasagent.bridge;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The rooms this node's bridge serves. A room subscribes to its topics on the event bus when its first
 * client joins and unsubscribes when its last leaves, so one bus message reaches every transport's
 * clients of that room here, in one order. Everything runs on the bridge's event loop.
 */
final class RoomHub {
  /** The room's outbound topics: what the server sends to browsers. */
  static final List<RoomTopic> OUTBOUND =
      List.of(
          RoomTopic.AGENT_ACTION,
          RoomTopic.AGENT_CHAT,
          RoomTopic.AGENT_STATUS,
          RoomTopic.AGENT_SCREENSHOT_REQUEST,
          RoomTopic.CANVAS_CHANGE,
          RoomTopic.DOC_LEASE);

  private final Vertx vertx;
  private final AppConfig.Bridge config;

  /** How long an empty room keeps listening and buffering, so a client that reconnects can resume. */
  static final long LINGER_MS = 60_000;

  private final Map<String, Subscribed> rooms = new HashMap<>();

  /** A room and its bus subscription, ready once every consumer is registered. */
  private static final class Subscribed {
    final Room room;
    final List<MessageConsumer<JsonObject>> consumers;
    final Future<Void> ready;
    long lingerTimer = -1;

    Subscribed(Room room, List<MessageConsumer<JsonObject>> consumers, Future<Void> ready) {
      this.room = room;
      this.consumers = consumers;
      this.ready = ready;
    }

    Room room() {
      return room;
    }
  }

  RoomHub(Vertx vertx, AppConfig.Bridge config) {
    this.vertx = vertx;
    this.config = config;
  }

  /**
   * Joins a client to a room. With {@code lastEventId} (a reconnect) it first gets what it missed from
   * the replay buffer or, when that cannot continue from there, a {@code canvas:resync} with the board;
   * live events wait behind either, so nothing arrives out of order.
   */
  Future<Room> join(String roomId, RoomClient client, String lastEventId) {
    Subscribed subscribed = rooms.computeIfAbsent(roomId, this::subscribe);
    vertx.cancelTimer(subscribed.lingerTimer);
    return subscribed.ready.compose(
        ready -> {
          Room room = subscribed.room();
          if (lastEventId == null) {
            room.join(client);
            return Future.succeededFuture(room);
          }
          Optional<List<RoomEvent>> missed = room.missedSince(lastEventId);
          if (missed.isPresent()) {
            room.resume(client, missed.get());
            return Future.succeededFuture(room);
          }
          ResyncingClient holding =
              new ResyncingClient(
                  client, roomId, covered -> room.covered(client.clientId(), covered));
          room.join(holding);
          return Address.PATCH_BOARD_GET
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
        });
  }

  private Subscribed subscribe(String roomId) {
    // Each incarnation of a room numbers its events afresh, under an id of its own.
    Room room = new Room(vertx, roomId, UUID.randomUUID().toString().substring(0, 8), config);
    List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
    // A room topic's body is the wire protocol, written for browsers (agent:action, canvas:change,
    // …),
    // not a bus request: the room relays it to its clients as it is, without reading it as a
    // record.
    for (RoomTopic topic : OUTBOUND) {
      consumers.add(
          vertx
              .eventBus()
              .<JsonObject>consumer(
                  topic.address(roomId), message -> room.publish(topic, message.body())));
    }
    Future<Void> ready =
        Future.all(consumers.stream().map(MessageConsumer::completion).toList()).mapEmpty();
    return new Subscribed(room, consumers, ready);
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
                  subscribed.consumers.forEach(MessageConsumer::unregister);
                }
              });
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
    List<Subscribed> all = new ArrayList<>(rooms.values());
    rooms.clear();
    all.forEach(
        subscribed -> {
          vertx.cancelTimer(subscribed.lingerTimer);
          subscribed.room().closeAll(why);
          subscribed.consumers.forEach(MessageConsumer::unregister);
        });
  }
}
