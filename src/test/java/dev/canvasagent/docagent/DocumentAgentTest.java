package dev.canvasagent.docagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The document agent over HTTP against PostgreSQL: a scripted loop that edits a document under the
 * lease and releases it, a lease already held, a person's edit preempting the loop between steps,
 * the step cap, delegation from a primary agent, the hidden canvas-update messages, and bad input.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentAgentTest {
  static final String TEXT = "# Title\n\nteh intro\n\n## Section\n\nfoo line\n";
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  GatedModel gated;
  RecordingModel recorded;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    gated = new GatedModel(vertx);
    recorded = new RecordingModel(vertx);
    server =
        TestServer.start(
            vertx,
            TestServer.config(Map.of()).withDatabase(Optional.of(database)),
            List.of(gated, recorded));
  }

  @AfterAll
  void stop() {
    if (server != null) {
      Await.result(server.stop());
      Await.result(vertx.close());
    }
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  static HttpResponse<Buffer> post(TestServer on, String path, JsonObject body) {
    return Await.result(
        on.http().post(path).putHeader("content-type", "application/json").sendJsonObject(body));
  }

  static void refused(HttpResponse<Buffer> response, int status, String code) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    assertEquals(
        code,
        response.bodyAsJsonObject().getJsonObject("error").getString("code"),
        response.bodyAsString());
  }

  static String create(TestServer on, String content) {
    HttpResponse<Buffer> created = post(on, "/api/docs", new JsonObject().put("content", content));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject().getString("id");
  }

  static JsonObject document(TestServer on, String docId) {
    HttpResponse<Buffer> found = on.get("/api/docs/" + docId);
    assertEquals(200, found.statusCode(), found.bodyAsString());
    return found.bodyAsJsonObject();
  }

  static JsonObject instruct(TestServer on, String docId, JsonObject body) {
    HttpResponse<Buffer> started = post(on, "/api/docs/" + docId + "/agent", body);
    assertEquals(202, started.statusCode(), started.bodyAsString());
    return started.bodyAsJsonObject();
  }

  /** Waits for the run's final agent:status and answers its detail. */
  static JsonObject ended(SseClient room, String runId) {
    List<SseClient.SseEvent> events =
        Await.result(
            room.awaitEvent(
                event ->
                    "agent:status".equals(event.event())
                        && runId.equals(
                            event
                                .data()
                                .getJsonObject("detail", new JsonObject())
                                .getString("runId"))
                        && List.of("done", "canceled", "error")
                            .contains(event.data().getString("state"))));
    return events.stream()
        .filter(
            event ->
                "agent:status".equals(event.event())
                    && runId.equals(event.data().getJsonObject("detail").getString("runId"))
                    && List.of("done", "canceled", "error")
                        .contains(event.data().getString("state")))
        .findFirst()
        .orElseThrow()
        .data();
  }

  long revisionCount(String docId) {
    return TestDatabase.queryLong(
        database,
        "SELECT count(*) FROM "
            + database.schema()
            + ".canvas_document_revisions WHERE doc_id = '"
            + docId
            + "'");
  }

  @Test
  void aScriptedLoopEditsTheDocumentUnderTheLeaseAndReleasesIt() {
    String docId = create(server, TEXT);
    String before = document(server, docId).getString("revisionId");
    SseClient room = server.events(docId);
    JsonObject started =
        instruct(
            server,
            docId,
            new JsonObject().put("instruction", "/doc-fix teh => the").put("model", "debug/fake"));
    assertEquals("running", started.getString("state"));
    assertEquals(
        docId,
        started.getString("sessionId"),
        "without a session id the document's own session is used");

    JsonObject status = ended(room, started.getString("runId"));
    assertEquals("done", status.getString("state"), status.encode());
    JsonObject detail = status.getJsonObject("detail");
    assertEquals("done", detail.getString("stop"));
    assertEquals(2, detail.getInteger("toolCalls"));
    assertEquals(3, detail.getInteger("steps"));
    assertEquals(
        new JsonObject().put("hunks", 1).put("added", 1).put("removed", 1),
        detail.getJsonObject("diffStats"));

    JsonObject document = document(server, docId);
    assertEquals(TEXT.replace("teh intro", "the intro"), document.getString("content"));
    assertNotEquals(before, document.getString("revisionId"));
    assertEquals(document.getString("revisionId"), detail.getString("revisionAfter"));
    assertFalse(
        document.getJsonObject("lease").getBoolean("held"), "the lease is checked in at the end");
    assertEquals(2, revisionCount(docId), "the created revision and the agent's one");
    JsonObject history = server.get("/api/docs/" + docId + "/revisions").bodyAsJsonObject();
    JsonObject agentRevision = history.getJsonArray("revisions").getJsonObject(0);
    assertEquals(
        "agent:" + docId, agentRevision.getString("author"), "the agent's session wrote it");
    assertEquals(
        "local",
        agentRevision.getString("subject"),
        "for the subject who asked (auth off: the open grant's)");
    assertFalse(
        started.containsKey("leaseId"), "the lease id stays in the loop: " + started.encode());
    assertEquals("agent:" + docId, started.getString("holder"));

    List<SseClient.SseEvent> events = room.received();
    List<String> leaseStates =
        events.stream()
            .filter(event -> "doc:lease".equals(event.event()))
            .map(event -> event.data().getString("state"))
            .toList();
    assertEquals("held", leaseStates.get(0), leaseStates.toString());
    JsonObject held =
        events.stream()
            .filter(event -> "doc:lease".equals(event.event()))
            .findFirst()
            .orElseThrow()
            .data();
    assertEquals("agent:" + docId, held.getString("holder"), held.encode());
    assertEquals("local", held.getString("holder_subject"), held.encode());
    assertFalse(held.containsKey("lease_id"), held.encode());
    assertEquals("released", leaseStates.get(leaseStates.size() - 1), leaseStates.toString());
    assertTrue(
        events.stream()
            .anyMatch(
                event ->
                    "agent:status".equals(event.event())
                        && "calling_model".equals(event.data().getString("state"))));
    assertTrue(
        Await.result(room.awaitEvent(event -> "agent:chat".equals(event.event()))).stream()
            .anyMatch(
                event ->
                    "agent:chat".equals(event.event())
                        && "Done: 1 tool call ran."
                            .equals(event.data().getJsonObject("message").getString("text"))));
    Await.result(room.close());
  }

  @Test
  void aPersonsInstructionPreemptsWhoeverHoldsTheLease() {
    String docId = create(server, TEXT);
    JsonObject lease =
        post(server, "/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject())
            .bodyAsJsonObject();
    SseClient room = server.events(docId);

    JsonObject started =
        instruct(
            server,
            docId,
            new JsonObject().put("instruction", "/doc-fix teh => the").put("model", "debug/fake"));

    assertTrue(
        started.getLong("canvasEpoch") > lease.getLong("canvas_epoch"),
        "the person's message voided the lease: epoch + 1");
    assertEquals("done", ended(room, started.getString("runId")).getString("state"));
    assertEquals(
        TEXT.replace("teh intro", "the intro"), document(server, docId).getString("content"));
    HttpResponse<Buffer> late =
        post(
            server,
            "/api/docs/" + docId + "/tools/canvas_replace_lines",
            new JsonObject()
                .put("start_line", 1)
                .put("end_line", 1)
                .put("new_content", "# stale\n")
                .put("lease_id", lease.getString("lease_id"))
                .put("canvas_epoch", lease.getLong("canvas_epoch")));
    assertEquals(409, late.statusCode(), late.bodyAsString());
    assertEquals(
        TEXT.replace("teh intro", "the intro"),
        document(server, docId).getString("content"),
        "the old holder wrote nothing");
    Await.result(room.close());
  }

  @Test
  void aDelegatedEditMeetsAHeldLeaseWithLockNotAvailableAndChangesNothing() {
    String docId = create(server, TEXT);
    HttpResponse<Buffer> lease =
        post(server, "/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject());
    assertEquals(200, lease.statusCode(), lease.bodyAsString());
    refused(
        post(
            server,
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", docId)
                .put("instruction", "/doc-fix teh => the")
                .put("model", "debug/fake")),
        409,
        "LOCK_NOT_AVAILABLE");
    assertEquals(TEXT, document(server, docId).getString("content"));
    JsonObject held = document(server, docId).getJsonObject("lease");
    assertTrue(held.getBoolean("held"), held.encode());
    assertEquals(
        lease.bodyAsJsonObject().getLong("held_since"),
        held.getLong("held_since"),
        "the same lease, still held");
    assertEquals(
        "local", held.getString("holder"), "with auth off, the open grant's subject holds it");
    assertEquals(1, revisionCount(docId));
  }

  @Test
  void aPersonsEditBetweenStepsStopsTheLoopAndNothingIsWrittenAfter() {
    String docId = create(server, TEXT);
    SseClient room = server.events(docId);
    JsonObject started =
        instruct(
            server,
            docId,
            new JsonObject()
                .put("instruction", "rewrite the title")
                .put("model", GatedModel.MODEL));
    Await.result(gated.secondAsked());
    String revision = document(server, docId).getString("revisionId");
    HttpResponse<Buffer> edited =
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject()
                        .put("content", "person text\n")
                        .put("baseRevisionId", revision)));
    assertEquals(200, edited.statusCode(), edited.bodyAsString());

    JsonObject status = ended(room, started.getString("runId"));
    assertEquals("canceled", status.getString("state"), status.encode());
    assertEquals("interrupted", status.getJsonObject("detail").getString("stop"));
    Await.result(gated.canceled());
    long revisions = revisionCount(docId);
    gated.release();
    // a late answer finds the loop over: read the document again after the agent's context has run
    // it
    Await.result(room.awaitEvent(event -> "agent:chat".equals(event.event())));
    assertEquals("person text\n", document(server, docId).getString("content"));
    assertEquals(revisions, revisionCount(docId));
    assertEquals(2, revisions, "the created revision and the person's, none of the agent's");
    assertFalse(document(server, docId).getJsonObject("lease").getBoolean("held"));
    Await.result(room.close());
  }

  @Test
  void theStepCapEndsTheLoopWithItsLastCallsUnrun() {
    // its own Vert.x: two servers on one event bus would share each other's consumers
    Vertx own = Vertx.vertx();
    TestServer capped =
        TestServer.start(own, TestServer.config(Map.of("CANVAS_AGENT_DOC_AGENT_MAX_STEPS", "1")));
    try {
      String docId = create(capped, TEXT);
      SseClient room = capped.events(docId);
      JsonObject started =
          instruct(
              capped,
              docId,
              new JsonObject()
                  .put("instruction", "/doc-fix teh => the")
                  .put("model", "debug/fake"));
      JsonObject status = ended(room, started.getString("runId"));
      JsonObject detail = status.getJsonObject("detail");
      assertEquals("step_cap", detail.getString("stop"), status.encode());
      assertEquals(1, detail.getInteger("steps"));
      assertEquals(0, detail.getInteger("toolCalls"));
      assertEquals(TEXT, document(capped, docId).getString("content"));
      assertFalse(document(capped, docId).getJsonObject("lease").getBoolean("held"));
      Await.result(room.close());
    } finally {
      Await.result(capped.stop());
      Await.result(own.close());
    }
  }

  @Test
  void aLoopPastItsTimeIsInterruptedAndChecksIn() {
    Vertx own = Vertx.vertx();
    SilentModel silent = new SilentModel();
    TestServer timed =
        TestServer.start(
            own,
            TestServer.config(Map.of("CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS", "1000")),
            List.of(silent));
    try {
      String docId = create(timed, TEXT);
      SseClient room = timed.events(docId);
      JsonObject started =
          instruct(
              timed,
              docId,
              new JsonObject().put("instruction", "anything").put("model", SilentModel.MODEL));
      assertTrue(
          document(timed, docId).getJsonObject("lease").getBoolean("held"),
          "the lease is held during the loop");
      JsonObject status = ended(room, started.getString("runId"));
      assertEquals("canceled", status.getString("state"), status.encode());
      assertEquals("timeout", status.getJsonObject("detail").getString("interruptedBy"));
      Await.result(silent.canceled());
      assertFalse(document(timed, docId).getJsonObject("lease").getBoolean("held"));
      Await.result(room.close());
    } finally {
      Await.result(timed.stop());
      Await.result(own.close());
    }
  }

  @Test
  void aDelegatedEditRequestAnswersASummaryOfTheChange() {
    String docId = create(server, TEXT);
    String before = document(server, docId).getString("revisionId");
    HttpResponse<Buffer> answered =
        post(
            server,
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", docId)
                .put("instruction", "/doc-fix foo => bar")
                .put("model", "debug/fake")
                .put("context", "the primary agent was asked to rename foo"));
    assertEquals(200, answered.statusCode(), answered.bodyAsString());
    JsonObject summary = answered.bodyAsJsonObject();
    assertEquals(docId, summary.getString("canvas_session_id"));
    assertEquals(before, summary.getString("revisionBefore"));
    assertEquals(
        document(server, docId).getString("revisionId"), summary.getString("revisionAfter"));
    assertNotEquals(before, summary.getString("revisionAfter"));
    assertTrue(summary.getBoolean("changed"));
    assertEquals(
        new JsonObject().put("hunks", 1).put("added", 1).put("removed", 1),
        summary.getJsonObject("diffStats"));
    assertTrue(
        summary.getString("diff").contains("-foo line\n+bar line\n"), summary.getString("diff"));
    assertEquals("Done: 1 tool call ran.", summary.getString("finalText"));
    assertEquals("done", summary.getString("stop"));

    refused(
        post(
            server,
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", "doc-none")
                .put("instruction", "/doc-fix a => b")
                .put("model", "debug/fake")),
        404,
        "NOT_FOUND");
    refused(
        post(
            server,
            "/api/canvas-agent/edit-request",
            new JsonObject().put("canvas_session_id", docId)),
        400,
        "INVALID_REQUEST");
    refused(
        post(
            server,
            "/api/canvas-agent/edit-request",
            new JsonObject().put("canvas_session_id", docId).put("instruction", " ")),
        400,
        "INVALID_REQUEST");
  }

  static long updates(ModelRequest request) {
    return RecordingModel.userTexts(request).stream()
        .mapToLong(
            text -> text.split(java.util.regex.Pattern.quote(CanvasUpdate.HEADER), -1).length - 1)
        .sum();
  }

  @Test
  void hiddenCanvasUpdatesReachTheAgentOnceEach() {
    String docId = create(server, TEXT);
    SseClient room = server.events(docId);
    JsonObject body =
        new JsonObject().put("model", RecordingModel.MODEL).put("sessionId", "hidden-" + docId);
    int first = recorded.requests().size();
    ended(
        room,
        instruct(server, docId, body.copy().put("instruction", "/doc-fix teh => the"))
            .getString("runId"));
    assertEquals(
        0, updates(recorded.requests().get(first)), "the first turn has nothing to catch up on");

    String revision = document(server, docId).getString("revisionId");
    String personText =
        TEXT.replace("teh intro", "the intro").replace("## Section", "## Person's section");
    HttpResponse<Buffer> edited =
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject().put("content", personText).put("baseRevisionId", revision)));
    assertEquals(200, edited.statusCode(), edited.bodyAsString());

    int second = recorded.requests().size();
    ended(
        room,
        instruct(server, docId, body.copy().put("instruction", "/doc-fix foo => bar"))
            .getString("runId"));
    ModelRequest asked = recorded.requests().get(second);
    assertEquals(2, updates(asked), "the agent's own edit once, then the person's once");
    List<String> texts = RecordingModel.userTexts(asked);
    String last = texts.get(texts.size() - 1);
    assertTrue(last.startsWith(CanvasUpdate.HEADER + "\n```diff\n"), last);
    assertTrue(last.contains("-## Section\n+## Person's section\n"), last);
    assertTrue(last.endsWith("```\n\n/doc-fix foo => bar"), last);
    assertTrue(
        texts.stream()
            .anyMatch(
                text ->
                    text.startsWith(CanvasUpdate.HEADER)
                        && text.contains("-teh intro\n+the intro\n")),
        texts.toString());

    int third = recorded.requests().size();
    ended(
        room,
        instruct(server, docId, body.copy().put("instruction", "/doc-fix nothing => here"))
            .getString("runId"));
    assertEquals(
        3,
        updates(recorded.requests().get(third)),
        "one more (the agent's second edit); the person's is not repeated");
    Await.result(room.close());
  }

  @Test
  void badInstructionsAreRefusedAndChangeNothing() {
    String docId = create(server, TEXT);
    refused(
        post(
            server,
            "/api/docs/doc-missing/agent",
            new JsonObject().put("instruction", "/doc-fix a => b").put("model", "debug/fake")),
        404,
        "NOT_FOUND");
    refused(
        post(server, "/api/docs/" + docId + "/agent", new JsonObject().put("instruction", "")),
        400,
        "INVALID_REQUEST");
    refused(
        post(server, "/api/docs/" + docId + "/agent", new JsonObject().put("instruction", "   ")),
        400,
        "INVALID_REQUEST");
    refused(
        post(server, "/api/docs/" + docId + "/agent", new JsonObject()), 400, "INVALID_REQUEST");
    refused(
        post(
            server,
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "x").put("extra", 1)),
        400,
        "INVALID_REQUEST");
    refused(
        post(
            server,
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "x").put("model", "nobody:model")),
        400,
        "UNKNOWN_MODEL");
    refused(
        post(
            server,
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "x".repeat(300 * 1024))),
        413,
        "BODY_TOO_LARGE");
    refused(
        post(server, "/api/docs/bad%20id/agent", new JsonObject().put("instruction", "x")),
        400,
        "INVALID_REQUEST");
    assertEquals(TEXT, document(server, docId).getString("content"));
    assertFalse(document(server, docId).getJsonObject("lease").getBoolean("held"));
    assertEquals(1, revisionCount(docId));
  }
}
