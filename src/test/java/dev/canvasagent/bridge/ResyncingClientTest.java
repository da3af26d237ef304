package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One resyncing client on its own: after a resync at revision R it gets nothing at or below R, not
 * what waited for the resync and not what comes after it, and every other event in the room's order.
 */
class ResyncingClientTest {
  /** A transport that records what it is sent. */
  static final class Recorded implements RoomClient {
    final List<RoomEvent> sent = new ArrayList<>();
    String closed;

    @Override
    public String clientId() {
      return "ws-1";
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
      sent.add(event);
      return closed == null;
    }

    @Override
    public void close(String why) {
      closed = why;
    }
  }

  final Recorded transport = new Recorded();
  final List<RoomEvent> covered = new ArrayList<>();
  final ResyncingClient client = new ResyncingClient(transport, "room-1", covered::add);

  static RoomEvent envelope(long seq, String actionId, Long rev) {
    JsonObject payload =
        new JsonObject()
            .put("sessionId", "s-1")
            .put("seq", seq)
            .put(
                "actions",
                new JsonArray()
                    .add(new JsonObject().put("id", actionId).put("name", "create_shape")));
    if (rev != null) {
      payload.put("rev", rev).put("diff", new JsonObject());
    }
    return new RoomEvent("i-" + seq, RoomTopic.AGENT_ACTION, payload);
  }

  static RoomEvent partial(long seq, String actionId) {
    RoomEvent whole = envelope(seq, actionId, null);
    return new RoomEvent(null, RoomTopic.AGENT_ACTION, whole.payload().put("partial", true));
  }

  static RoomEvent change(long revision) {
    return new RoomEvent(
        "c-" + revision,
        RoomTopic.CANVAS_CHANGE,
        new JsonObject().put("revision", revision).put("author", "person"));
  }

  static RoomEvent status() {
    return new RoomEvent(
        "st",
        RoomTopic.AGENT_STATUS,
        new JsonObject().put("sessionId", "s-1").put("state", "done"));
  }

  static RoomEvent resync(long revision) {
    return new RoomEvent(
        null,
        RoomTopic.CANVAS_RESYNC,
        new JsonObject().put("type", "canvas:resync").put("revision", revision));
  }

  @Test
  void whatWaitedIsSentAfterTheResyncUnlessTheBoardHoldsIt() {
    RoomEvent partialOfCovered = partial(1, "r:0");
    RoomEvent covered4 = envelope(2, "r:0", 4L);
    RoomEvent change5 = change(5);
    RoomEvent partialOfLater = partial(3, "r:1");
    RoomEvent later6 = envelope(4, "r:1", 6L);
    RoomEvent viewport = envelope(5, "r:2", null);
    RoomEvent done = status();
    List.of(partialOfCovered, covered4, change5, partialOfLater, later6, viewport, done)
        .forEach(event -> assertTrue(client.deliver(event)));
    assertEquals(List.of(), transport.sent, "nothing before the resync");

    RoomEvent resync = resync(5);
    client.release(resync, 5);

    assertEquals(List.of(resync, partialOfLater, later6, viewport, done), transport.sent);
    assertEquals(List.of(covered4, change5), covered);
  }

  @Test
  void whatArrivesAfterTheResyncAtOrBelowItsRevisionIsNotSent() {
    RoomEvent resync = resync(5);
    client.release(resync, 5);
    RoomEvent late5 = envelope(1, "r:0", 5L);
    RoomEvent change3 = change(3);
    RoomEvent next6 = envelope(2, "r:1", 6L);
    RoomEvent change7 = change(7);
    List.of(late5, change3, next6, change7).forEach(event -> assertTrue(client.deliver(event)));

    assertEquals(List.of(resync, next6, change7), transport.sent);
    assertEquals(List.of(late5, change3), covered);
  }

  @Test
  void aClientThatFallsTooFarBehindWhileItsBoardIsReadIsClosed() {
    for (int i = 0; i < ResyncingClient.MAX_HELD_EVENTS; i++) {
      assertTrue(client.deliver(envelope(i + 1, "r:" + i, (long) i + 1)));
    }
    assertEquals(false, client.deliver(status()));
    assertEquals("too many events while resyncing", transport.closed);
  }
}
