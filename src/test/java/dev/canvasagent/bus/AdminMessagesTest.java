package dev.canvasagent.bus;

import static dev.canvasagent.bus.SessionMessagesTest.refused;
import static dev.canvasagent.bus.SessionMessagesTest.roundTrips;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The admin views' messages: each reads back what it wrote, also through text (as it crosses nodes),
 * and one without a key it needs is INVALID_REQUEST naming that key.
 */
class AdminMessagesTest {
  static final RunActivity RUNNING =
      new RunActivity("s1", "r1", RunActivity.RUNNING, 1_700_000_000_000L);
  static final LeaseView LEASE = new LeaseView(true, "alice", "alice", 1L, 2L, 3L);

  @Test
  void eachReadsBackWhatItWrote() {
    roundTrips(new BoardCacheState("demo", 4L, 5L), BoardCacheState::fromJson);
    roundTrips(new BoardCacheState("demo", null, 0L), BoardCacheState::fromJson);
    roundTrips(new RoomRuns("demo", List.of(RUNNING), 2), RoomRuns::fromJson);
    roundTrips(
        new SessionActivity(
            "s1",
            "demo",
            "node-a",
            List.of("r2", "r3"),
            RUNNING,
            new EndedRun("r0", "canceled", "CANCELED", 1L, 2L)),
        SessionActivity::fromJson);
    roundTrips(
        new SessionActivity("s1", "demo", "node-a", List.of(), null, null),
        SessionActivity::fromJson);
    roundTrips(
        new RoomDocuments(
            "demo",
            List.of(
                new RoomDocuments.DocumentLease("doc-1", LEASE, "agent-session"),
                new RoomDocuments.DocumentLease(
                    "doc-2", new LeaseView(false, null, null, null, null, 0L), null))),
        RoomDocuments::fromJson);
  }

  @Test
  void aMissingKeyIsNamed() {
    refused(
        BoardCacheState::fromJson,
        new BoardCacheState("demo", 4L, 5L).toJson().copy().put("storedRevision", (Object) null),
        "storedRevision");
    refused(
        RoomRuns::fromJson,
        new RoomRuns("demo", List.of(), 0).toJson().copy().put("roomId", (Object) null),
        "roomId");
    refused(
        SessionActivity::fromJson,
        new SessionActivity("s1", "demo", "node-a", List.of(), null, null)
            .toJson()
            .copy()
            .put("ownerNode", (Object) null),
        "ownerNode");
  }
}
