package dev.canvasagent.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The document addresses' messages: each reads back from its JSON as it was, keeps the keys the
 * wire had, and a message missing a key it needs is refused INVALID_REQUEST naming that key.
 */
class DocumentMessagesTest {
  static final Actor PERSON = Actor.person("alice");
  static final Actor AGENT = Actor.agent("alice", "doc-session");
  static final LeaseView HELD =
      new LeaseView(true, "agent:doc-session", "alice", 1_000L, 61_000L, 3);
  static final LeaseView FREE = new LeaseView(false, null, null, null, null, 4);

  @Test
  void everyMessageReadsBackFromItsJson() {
    List<JsonObject> snapshots =
        List.of(new JsonObject().put("snapshot_id", "s1").put("label", "start"));
    roundTrips(new DocumentRef("doc-1"), DocumentRef::fromJson);
    roundTrips(new AgentSessionRef("session-1"), AgentSessionRef::fromJson);
    roundTrips(
        new DocumentCreateRequest("doc-1", "room-1", "Notes", "# Notes\n", PERSON),
        DocumentCreateRequest::fromJson);
    roundTrips(
        new DocumentCreated("doc-1", "room-1", "0123456789abcdef"), DocumentCreated::fromJson);
    roundTrips(
        new DocumentView(
            "doc-1",
            "room-1",
            "Notes",
            "# Notes\n",
            "0123456789abcdef",
            2,
            1,
            0,
            10L,
            20L,
            HELD,
            snapshots),
        DocumentView::fromJson);
    roundTrips(new DocumentRoom("doc-1", "room-1"), DocumentRoom::fromJson);
    roundTrips(new DocumentRevision("doc-1", "rev-2", "ana"), DocumentRevision::fromJson);
    roundTrips(
        new DocumentEditRequest("doc-1", "new\n", "0123456789abcdef", PERSON),
        DocumentEditRequest::fromJson);
    roundTrips(
        new DocumentEdited("doc-1", "fedcba9876543210", true, FREE), DocumentEdited::fromJson);
    roundTrips(new DocumentHistoryRequest("doc-1", 50), DocumentHistoryRequest::fromJson);
    roundTrips(
        new DocumentHistory(
            "doc-1",
            List.of(new JsonObject().put("version", 1)),
            List.of(new JsonObject().put("operation", "edit"))),
        DocumentHistory::fromJson);
    roundTrips(new LeasePreempted("doc-1", FREE), LeasePreempted::fromJson);
    roundTrips(
        new DocumentToolCall(
            "doc-1", "canvas_read_lines", new JsonObject().put("start_line", 1), AGENT),
        DocumentToolCall::fromJson);
    roundTrips(
        new DocumentToolResult(new JsonObject().put("revision_id", "0123456789abcdef")),
        DocumentToolResult::fromJson);
    roundTrips(
        new DocumentAgentRequest("doc-1", "tidy it", PERSON, "fake", "session-1"),
        DocumentAgentRequest::fromJson);
    roundTrips(
        new DocumentAgentRequest("doc-1", "tidy it", PERSON, null, null),
        DocumentAgentRequest::fromJson);
    roundTrips(
        new DocumentAgentStarted(
            "docrun-1", "doc-1", "doc-1", "room-1", "fake", "agent:doc-1", 3, "0123456789abcdef"),
        DocumentAgentStarted::fromJson);
    roundTrips(
        new DelegatedEditRequest(
            "doc-1", "tidy it", PERSON, new JsonObject().put("goal", "short"), null),
        DelegatedEditRequest::fromJson);
    roundTrips(
        new DelegatedEditRequest("doc-1", "tidy it", PERSON, "be brief", "fake"),
        DelegatedEditRequest::fromJson);
    roundTrips(
        new DelegatedEditRequest("doc-1", "tidy it", PERSON, null, null),
        DelegatedEditRequest::fromJson);
    roundTrips(
        new DelegatedEditOutcome(
            "doc-1", new JsonObject().put("runId", "docrun-1").put("changed", true)),
        DelegatedEditOutcome::fromJson);
    roundTrips(new LeaseChange("doc-1", "held", HELD), LeaseChange::fromJson);
  }

  @Test
  void theWireKeepsItsKeysAndNamesTheBaseRevisionBaseRevision() {
    assertEquals(
        Set.of("docId", "content", "baseRevision", "subject"),
        new DocumentEditRequest("doc-1", "x", "0123456789abcdef", PERSON).toJson().fieldNames());
    assertEquals(
        Set.of("docId", "tool", "args", "subject", "agentSession"),
        new DocumentToolCall("doc-1", "canvas_check_out", new JsonObject(), AGENT)
            .toJson()
            .fieldNames());
    assertEquals(
        Set.of("held", "holder", "holder_subject", "held_since", "expires_at", "canvas_epoch"),
        FREE.toJson().fieldNames(),
        "a free lease keeps its keys, null");
    assertEquals(
        Set.of(
            "type",
            "docId",
            "state",
            "held",
            "holder",
            "holder_subject",
            "held_since",
            "expires_at",
            "canvas_epoch"),
        new LeaseChange("doc-1", "expired", FREE).toJson().fieldNames());
    assertEquals("doc:lease", new LeaseChange("doc-1", "held", HELD).toJson().getString("type"));
    assertEquals(
        Set.of("type", "docId", "revision", "author"),
        new DocumentRevision("doc-1", "rev-2", "agent:s1").toJson().fieldNames());
    assertEquals(
        "running",
        new DocumentAgentStarted("r", "d", "s", "room", "m", "h", 1, "rev")
            .toJson()
            .getString("state"));
    JsonObject outcome =
        new DelegatedEditOutcome("session-1", new JsonObject().put("stop", "done")).toJson();
    assertEquals(
        new JsonObject().put("stop", "done").put("canvas_session_id", "session-1"), outcome);
    JsonObject result = new JsonObject().put("lease_id", "l").put("revision_id", "r");
    assertEquals(result, new DocumentToolResult(result).toJson(), "a tool's result is the body");
  }

  @Test
  void aRequestThatNamesNobodyIsRefused() {
    JsonObject noSubject =
        new DocumentCreateRequest("doc-1", "room-1", "Notes", "x", PERSON).toJson();
    noSubject.remove("subject");
    assertRefused(
        "the request names no subject to act for", DocumentCreateRequest::fromJson, noSubject);
    JsonObject blank =
        new DocumentToolCall("doc-1", "canvas_check_out", new JsonObject(), PERSON)
            .toJson()
            .put("subject", " ");
    assertRefused("the request names no subject to act for", DocumentToolCall::fromJson, blank);
    JsonObject agent =
        new DocumentToolCall("doc-1", "canvas_check_out", new JsonObject(), AGENT).toJson();
    assertEquals(AGENT, DocumentToolCall.fromJson(agent).caller());
    assertEquals("agent:doc-session", AGENT.name());
    assertEquals("alice", PERSON.name());
  }

  @Test
  void aMissingOrMistypedKeyIsRefusedByName() {
    assertRefused("a document reference needs docId", DocumentRef::fromJson, new JsonObject());
    assertRefused(
        "a document history request needs limit",
        DocumentHistoryRequest::fromJson,
        new JsonObject().put("docId", "doc-1"));
    assertRefused(
        "a document history request's limit must be a whole number",
        DocumentHistoryRequest::fromJson,
        new JsonObject().put("docId", "doc-1").put("limit", "50"));
    assertRefused(
        "a document edit needs baseRevision",
        DocumentEditRequest::fromJson,
        new JsonObject().put("docId", "doc-1").put("content", "x").put("subject", "alice"));
    assertRefused(
        "a document tool call's args must be an object",
        DocumentToolCall::fromJson,
        new JsonObject()
            .put("docId", "doc-1")
            .put("tool", "canvas_check_out")
            .put("args", "{}")
            .put("subject", "alice"));
    assertRefused(
        "a delegated edit's context must be text or an object",
        DelegatedEditRequest::fromJson,
        new JsonObject()
            .put("canvas_session_id", "doc-1")
            .put("instruction", "x")
            .put("context", 42)
            .put("subject", "alice"));
    JsonObject view =
        new DocumentView("d", "r", "t", "c", "rev", 1, 0, 0, 1L, 2L, FREE, List.of()).toJson();
    view.remove("lease");
    assertRefused("a document needs lease", DocumentView::fromJson, view);
  }

  @Test
  void aFreeLeaseReadsBackFree() {
    LeaseView read = LeaseView.fromJson(FREE.toJson());
    assertFalse(read.held());
    assertEquals(4, read.canvasEpoch());
    assertTrue(LeaseView.fromJson(HELD.toJson()).held());
  }

  private static void assertRefused(
      String message, Function<JsonObject, ?> reader, JsonObject json) {
    Failure refused = assertThrows(Failure.class, () -> reader.apply(json), json.encode());
    assertEquals(FailureCode.INVALID_REQUEST, refused.code());
    assertEquals(message, refused.getMessage());
  }

  /** {@code message} reads back as itself from its JSON, which its copy writes again as it was. */
  private static <T extends BusMessage> void roundTrips(T message, Function<JsonObject, T> reader) {
    JsonObject json = message.toJson();
    T read = reader.apply(json.copy());
    assertEquals(message, read, json.encode());
    assertEquals(json, read.toJson(), json.encode());
  }
}
