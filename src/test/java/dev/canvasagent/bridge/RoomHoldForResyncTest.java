package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A room whose stream switched to another owner holds every live client for a resync: what the room
 * gets meanwhile waits, each client gets the resync first and then only what its board does not hold,
 * in its place among the room's clients, and the host owes no ack for what was left out.
 */
class RoomHoldForResyncTest {
  final Vertx vertx = Vertx.vertx();
  final Room room =
      new Room(
          vertx,
          "room-1",
          new AppConfig.Bridge(60_000, 2, 100, 65_536, 50),
          (roomId, client, present) -> Future.succeededFuture());

  /** A transport that records the topics and revisions it is sent. */
  static final class Recorded implements RoomClient {
    final String clientId;
    final List<String> sent = new ArrayList<>();

    Recorded(String clientId) {
      this.clientId = clientId;
    }

    @Override
    public String clientId() {
      return clientId;
    }

    @Override
    public String transport() {
      return "websocket";
    }

    @Override
    public boolean canHost() {
      return true;
    }

    @Override
    public boolean mayEdit() {
      return true;
    }

    @Override
    public boolean deliver(RoomEvent event) {
      Object rev = event.payload().getValue("rev", event.payload().getValue("revision"));
      sent.add(event.topic().wireName() + (rev == null ? "" : "@" + rev));
      return true;
    }

    @Override
    public void close(String why) {}
  }

  @AfterEach
  void close() {
    vertx.close().await();
  }

  static Sequenced envelope(long position, long seq, long rev) {
    return new Sequenced(
        "room-1",
        "node-b",
        "inc-b",
        position,
        "inc-b-" + position,
        "agent:action",
        new JsonObject()
            .put("sessionId", "s-1")
            .put("seq", seq)
            .put("rev", rev)
            .put("diff", new JsonObject())
            .put(
                "actions",
                new JsonArray()
                    .add(new JsonObject().put("id", "r:" + seq).put("name", "create_shape"))),
        "m-" + position);
  }

  static Sequenced host(long position, String clientId) {
    return new Sequenced(
        "room-1",
        "node-b",
        "inc-b",
        position,
        null,
        "canvas:host",
        new JsonObject().put("type", "canvas:host").put("hostClientId", clientId),
        null);
  }

  @Test
  void everyClientGetsTheResyncThenOnlyWhatItsBoardDoesNotHold() {
    Recorded first = new Recorded("ws-1");
    Recorded second = new Recorded("ws-2");
    room.join(first);
    room.join(second);
    room.apply(host(1, "ws-1"));

    List<ResyncingClient> holding = room.holdForResync();
    room.apply(envelope(2, 1, 4));
    room.apply(envelope(3, 2, 5));
    assertEquals(List.of("canvas:host"), first.sent, "nothing while the board is read");
    assertEquals(2, room.pendingAcks(), "held, the host owes both");
    RoomEvent resync =
        new RoomEvent(
            null,
            RoomTopic.CANVAS_RESYNC,
            new JsonObject().put("type", "canvas:resync").put("revision", 4));
    holding.forEach(client -> client.release(resync, 4));
    assertEquals(1, room.pendingAcks(), "the host owes no ack for what its resync held already");
    room.apply(envelope(4, 3, 6));

    assertEquals(
        List.of("canvas:host", "canvas:resync@4", "agent:action@5", "agent:action@6"), first.sent);
    assertEquals(
        List.of("canvas:host", "canvas:resync@4", "agent:action@5", "agent:action@6"), second.sent);
    assertEquals(List.of("ws-1", "ws-2"), holding.stream().map(ResyncingClient::clientId).toList());
    assertEquals(Optional.of("ws-1"), room.hostId(), "the host is still the host");
  }
}
