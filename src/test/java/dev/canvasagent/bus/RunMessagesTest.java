package dev.canvasagent.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The run addresses' messages: each reads back from its JSON as it was, keeps the keys the bus has
 * always carried, and a request without a key it needs is refused INVALID_REQUEST naming the key.
 */
class RunMessagesTest {
  private static final IdempotencyKey KEY =
      IdempotencyKey.of("alice", "k-1", new JsonObject().put("roomId", "r1"));

  @Test
  void aSubmitReadsBackWithItsViewportSelectionAndKey() {
    RunSubmit submit =
        new RunSubmit(
            "r1",
            "s1",
            "draw a box",
            "debug/fake",
            new Viewport(0, 0, 800, 600),
            List.of("a"),
            KEY);
    assertEquals(submit, RunSubmit.fromJson(submit.toJson()));
    assertEquals(
        Set.of("roomId", "sessionId", "message", "model", "viewport", "selection", "idempotency"),
        submit.toJson().fieldNames());
    RunSubmit bare = new RunSubmit("r1", null, "hi", null, null, null, null);
    assertEquals(Set.of("roomId", "message"), bare.toJson().fieldNames());
    assertEquals(bare, RunSubmit.fromJson(bare.toJson()));
  }

  @Test
  void anOutcomeSaysWhetherTheRunnerRecordedIt() {
    JsonObject detail =
        new JsonObject().put("runId", "run-1").put("code", "STORE_UNAVAILABLE").put("applied", 2);
    RunOutcome unrecorded = new RunOutcome(RunState.ERROR, detail, false);
    assertEquals(detail.copy().put("state", "error").put("recorded", false), unrecorded.toJson());
    assertEquals(unrecorded, RunOutcome.fromJson(unrecorded.toJson()));
    assertEquals(
        new RunOutcome(RunState.DONE, new JsonObject().put("runId", "run-1"), true),
        RunOutcome.fromJson(new JsonObject().put("runId", "run-1").put("state", "done")),
        "an outcome that does not say was recorded");
  }

  @Test
  void aRunStartIsTheRunsJsonWithTheQueuesTwoFacts() {
    RunRequest run =
        new RunRequest(
            "run-2",
            "s1",
            "r1",
            "more",
            "debug/fake",
            null,
            List.of("shape:a"),
            new FollowUp("run-1", "run-1", 1, "review"));
    RunStart start = new RunStart(run, 3, 1);
    assertEquals(
        run.toJson().put("queueDepthAtStart", 3).put("followUpsWaiting", 1), start.toJson());
    assertEquals(start, RunStart.fromJson(start.toJson()));
    assertEquals(new RunStart(run, 0, 0), RunStart.fromJson(run.toJson()));
  }

  @Test
  void aCancelAnswerKeepsItsNullWhenNothingWasRunning() {
    SessionCanceled nothing = new SessionCanceled("s1", null, List.of("run-3"));
    JsonObject json = nothing.toJson();
    assertTrue(json.containsKey("canceled"));
    assertNull(json.getValue("canceled"));
    assertEquals(new JsonArray().add("run-3"), json.getJsonArray("dropped"));
    assertEquals(nothing, SessionCanceled.fromJson(json));

    SessionCanceled one =
        new SessionCanceled(
            "s1", new SessionCanceled.CanceledRun("run-1", RunState.CANCELED), List.of());
    assertEquals(
        new JsonObject().put("runId", "run-1").put("state", "canceled"),
        one.toJson().getJsonObject("canceled"));
    assertEquals(one, SessionCanceled.fromJson(one.toJson()));
  }

  @Test
  void todosAndTheirChangesReadBack() {
    TodoItem open = new TodoItem("t1", "a box", "open", 0, 1_000L, null);
    TodoItem done = new TodoItem("t2", "a line", "done", 1, 1_000L, 2_000L);
    assertEquals(
        Set.of("id", "text", "status", "position", "createdAt"), open.toJson().fieldNames());
    TodoList list = new TodoList("s1", List.of(open, done));
    assertEquals(list, TodoList.fromJson(list.toJson()));
    assertEquals(List.of(done), list.withStatus("done").todos());

    TodoChange change = new TodoChange(TodoChange.Op.RESOLVED, done);
    assertEquals("resolved", change.toJson().getString("op"));
    assertEquals(change, TodoChange.fromJson(change.toJson()));
  }

  @Test
  void grantedFollowUpsReadBack() {
    GrantedFollowUps granted =
        new GrantedFollowUps(List.of(new GrantedFollowUp("run-2", 1, "low_actions")));
    assertEquals(granted, GrantedFollowUps.fromJson(granted.toJson()));
    assertEquals(new GrantedFollowUps(List.of()), GrantedFollowUps.fromJson(new JsonObject()));
  }

  @Test
  void anUtteranceReadsBackAndANewOneMayLeaveItsTimeOut() {
    TranscriptAdd add = new TranscriptAdd("r1", "bob", "hello", 1_700_000_000_000L, KEY);
    assertEquals(add, TranscriptAdd.fromJson(add.toJson()));
    TranscriptAdd now = new TranscriptAdd("r1", "bob", "hello", null, null);
    assertEquals(Set.of("speaker", "text", "roomId"), now.toJson().fieldNames());
    assertEquals(now, TranscriptAdd.fromJson(now.toJson()));
    StoredUtterance stored = new StoredUtterance("bob", "hello", 5L);
    assertEquals(stored, StoredUtterance.fromJson(stored.toJson()));
    RunAccepted accepted = new RunAccepted("s1", "run-1");
    assertEquals(accepted, RunAccepted.fromJson(accepted.toJson()));
  }

  @Test
  void aRoomViewRequestReadsBackAndLeavesOutWhatItDoesNotGive() {
    RoomViewRequest full =
        new RoomViewRequest(
            "r1", true, new Viewport(1, 2, 3, 4), new RoomViewRequest.Origin(-5, 6.5));
    assertEquals(full, RoomViewRequest.fromJson(full.toJson()));
    assertEquals(Set.of("roomId", "screenshot", "viewport", "origin"), full.toJson().fieldNames());
    RoomViewRequest bare = new RoomViewRequest("r1", false, null);
    assertEquals(Set.of("roomId", "screenshot"), bare.toJson().fieldNames());
    assertEquals(bare, RoomViewRequest.fromJson(new JsonObject().put("roomId", "r1")));
  }

  @Test
  void aRequestWithoutAKeyItNeedsIsRefusedNamingIt() {
    assertRefused("has no body", () -> SessionRef.fromJson(null));
    assertRefused("sessionId", () -> SessionRef.fromJson(new JsonObject().put("sessionId", " ")));
    assertRefused("message", () -> RunSubmit.fromJson(new JsonObject().put("roomId", "r1")));
    assertRefused(
        "roomId",
        () -> TranscriptAdd.fromJson(new JsonObject().put("speaker", "a").put("text", "b")));
  }

  @Test
  void aRunHandedToItsSessionsOwnerCrossesTheBusAsItIsAndIsRefusedWithoutItsParts() {
    OwnedRunSubmit owned =
        new OwnedRunSubmit(
            new RunSubmit("r1", null, "draw", "debug/fake", null, List.of("shape:a"), null), "s1");
    assertEquals(owned, OwnedRunSubmit.fromJson(owned.toJson()));
    assertRefused("has no body", () -> OwnedRunSubmit.fromJson(null));
    assertRefused("sessionId", () -> OwnedRunSubmit.fromJson(owned.toJson().put("sessionId", " ")));
    assertRefused("submit", () -> OwnedRunSubmit.fromJson(owned.toJson().put("submit", "x")));
    assertRefused(
        "message",
        () ->
            OwnedRunSubmit.fromJson(
                owned.toJson().put("submit", new JsonObject().put("roomId", "r1"))));
  }

  /** Refused INVALID_REQUEST with a message naming {@code what}: the key, or the missing body. */
  private static void assertRefused(String what, Runnable read) {
    Failure failure = assertThrows(Failure.class, read::run);
    assertEquals(FailureCode.INVALID_REQUEST, failure.code());
    assertTrue(failure.getMessage().contains(what), failure.getMessage());
  }
}
