package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The owner's room: one numbering for the cluster, its snapshot, and the one host it elects. */
class RoomSequencerTest {
  final RoomSequencer room = new RoomSequencer("r", "owner", "inc1", 3);

  static JsonObject envelope(long seq, boolean partial) {
    JsonObject envelope = new JsonObject().put("sessionId", "s").put("seq", seq);
    return partial ? envelope.put("partial", true) : envelope;
  }

  static RoomClientChange client(String id, String node, boolean canHost) {
    return new RoomClientChange("r", node, id, canHost, true);
  }

  @Test
  void eventsAreNumberedOnceInOneOrderAndPartialsAndHostOnlyRequestsAreNot() {
    Sequenced partial = room.sequence(RoomTopic.AGENT_ACTION, envelope(1, true), "m1");
    Sequenced fin = room.sequence(RoomTopic.AGENT_ACTION, envelope(1, false), "m2");
    Sequenced request =
        room.sequence(
            RoomTopic.AGENT_SCREENSHOT_REQUEST, new JsonObject().put("requestId", "q"), "m3");
    Sequenced chat = room.sequence(RoomTopic.AGENT_CHAT, new JsonObject().put("text", "hi"), "m4");
    assertEquals(
        List.of(1L, 2L, 3L, 4L),
        List.of(partial.position(), fin.position(), request.position(), chat.position()));
    assertNull(partial.eventId());
    assertEquals("m2", fin.messageId(), "the publisher's id goes with it");
    assertEquals("inc1-1", fin.eventId());
    assertNull(request.eventId());
    assertEquals("inc1-2", chat.eventId());

    RoomSnapshot snapshot = room.snapshot();
    assertEquals(4, snapshot.position());
    assertEquals(2, snapshot.latestNumber());
    assertEquals(
        List.of("inc1-1", "inc1-2"), snapshot.events().stream().map(RoomEvent::id).toList());
    assertEquals(Map.of("s", 1L), snapshot.lastSeqBySession());
    RoomSnapshot read = RoomSnapshot.fromJson(snapshot.toJson());
    assertEquals(snapshot.toJson(), read.toJson(), "the snapshot crosses the bus as it is");
  }

  @Test
  void theReplayBufferKeepsTheNewestAndTheLatestNumber() {
    for (int i = 0; i < 5; i++) {
      room.sequence(RoomTopic.AGENT_CHAT, new JsonObject().put("n", i), "n" + i);
    }
    RoomSnapshot snapshot = room.snapshot();
    assertEquals(5, snapshot.latestNumber());
    assertEquals(
        List.of("inc1-3", "inc1-4", "inc1-5"),
        snapshot.events().stream().map(RoomEvent::id).toList());
    ReplayBuffer copy =
        ReplayBuffer.seeded(snapshot.incarnation(), 3, snapshot.latestNumber(), snapshot.events());
    assertEquals(1, copy.after("inc1-4").orElseThrow().size());
    assertTrue(copy.after("inc1-1").isEmpty(), "older than the buffer: resync");
    assertTrue(copy.after("other-4").isEmpty(), "another incarnation: resync");
  }

  @Test
  void theFirstClientThatCanHostOnAnyNodeHostsAndTheNextTakesOver() {
    assertFalse(room.watch("a", List.of(client("viewer", "a", false))), "no one can host yet");
    assertNull(room.host().clientId());
    assertTrue(room.watch("b", List.of(client("first", "b", true))));
    assertEquals(new RoomHost("r", "first", "b"), room.host());
    assertFalse(room.client(client("second", "a", true)), "a host stays host");
    assertEquals("canvas:host", room.hostChange().topic());
    assertEquals("first", room.hostChange().payload().getString("hostClientId"));

    assertTrue(room.client(new RoomClientChange("r", "b", "first", false, true)));
    assertEquals("second", room.host().clientId(), "a host that can no longer answer hands over");
    assertFalse(
        room.client(new RoomClientChange("r", "b", "first", true, true)),
        "the new host stays host when the old one can answer again");
    assertTrue(room.client(new RoomClientChange("r", "a", "second", true, false)));
    assertEquals("first", room.host().clientId(), "the host left: the next in order hosts");

    assertFalse(room.client(client("third", "a", true)));
    assertTrue(room.membersChanged(List.of("owner", "a")), "node b left with its host");
    assertEquals(new RoomHost("r", "third", "a"), room.host());
    assertEquals(java.util.Set.of("a"), room.watchers());
    assertTrue(room.unwatch("a"));
    assertNull(room.host().clientId());
    assertTrue(room.unwatched());
  }
}
