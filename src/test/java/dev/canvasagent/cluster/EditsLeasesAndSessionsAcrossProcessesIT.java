package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ClusterProcesses;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two fat-jar processes clustered on loopback over one PostgreSQL schema, driven over real HTTP only:
 * a person's board edits posted through both at once stay one linear history; a document lease taken
 * through one is fenced by a preemption through the other; a document-agent session started on one
 * goes on on the other. One cluster for the class; each test works in rooms and documents of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EditsLeasesAndSessionsAcrossProcessesIT {
  static final int A = 0;
  static final int B = 1;
  static final int ROUNDS = 8;
  static final int PER_NODE = 3;
  static final int WRITERS_PER_NODE = 2;
  static final int EDITS_PER_WRITER = 5;

  /** More tries than a writer can need: each refusal means another writer's edit was committed. */
  static final int MAX_TRIES = 2 * WRITERS_PER_NODE * EDITS_PER_WRITER + 1;

  /**
   * Slows {@code debug/fake}'s answers (each is some ten stream events) so that a document-agent loop
   * is still in its first model calls when a preemption is sent.
   */
  static final int FAKE_TOKEN_DELAY_MS = 150;

  static final String TEXT = "# Notes\n\nteh intro\n\n## Section\n\nfoo and more\n";

  DatabaseConfig database;
  Vertx vertx;
  ClusterProcesses cluster;

  @BeforeAll
  void start() {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    cluster =
        ClusterProcesses.start(
            vertx,
            2,
            database,
            Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", String.valueOf(FAKE_TOKEN_DELAY_MS)));
  }

  @AfterAll
  void stop() {
    ClusterProcesses.closeAll(cluster, vertx, database);
  }

  @Test
  void editsOnOneBaseRevisionPostedThroughBothProcessesCommitOneARound() {
    String room = "linear-rounds";
    Set<String> accepted = new TreeSet<>();
    Set<Long> acceptedRevisions = new TreeSet<>();
    for (int round = 0; round < ROUNDS; round++) {
      long base = board(A, room).getLong("revision");
      List<Future<HttpResponse<Buffer>>> sent = new ArrayList<>();
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < PER_NODE; i++) {
        for (int node : List.of(A, B)) {
          String id = "shape:r" + round + "-" + node + "-" + i;
          ids.add(id);
          sent.add(change(node, room, id, base));
        }
      }
      int acceptedThisRound = 0;
      for (int i = 0; i < sent.size(); i++) {
        HttpResponse<Buffer> answer = Await.result(sent.get(i));
        JsonObject body = answer.bodyAsJsonObject();
        if (answer.statusCode() == 200) {
          acceptedThisRound++;
          accepted.add(ids.get(i));
          assertTrue(body.getBoolean("changed"), body.encode());
          assertTrue(acceptedRevisions.add(body.getLong("revision")), "answered once: " + body);
        } else {
          assertRevisionConflict(answer);
          assertEquals(
              base + 1,
              body.getLong("revision"),
              "the refusal names the room's revision now: the round's one commit");
        }
      }
      assertEquals(1, acceptedThisRound, "one commit per base revision, across both processes");
    }
    assertOneLinearHistory(room, ROUNDS, accepted);
    assertEquals(linear(ROUNDS), new ArrayList<>(acceptedRevisions));
  }

  /**
   * As a page does: writers on both processes each send their edits one after another, and on {@code
   * REVISION_CONFLICT} send the same edit again on the revision the refusal names, until it is
   * committed. Every edit ends committed exactly once, as one revision of one history.
   */
  @Test
  void writersOnBothProcessesRebasingOnEachConflictEndWithEveryEditOnceInOneHistory() {
    String room = "linear-writers";
    AtomicInteger refused = new AtomicInteger();
    List<Future<List<String>>> writers = new ArrayList<>();
    for (int w = 0; w < 2 * WRITERS_PER_NODE; w++) {
      writers.add(writer(w % 2 == 0 ? A : B, room, "w" + w, EDITS_PER_WRITER, refused));
    }
    Set<String> accepted = new TreeSet<>();
    for (Future<List<String>> writer : writers) {
      accepted.addAll(Await.result(writer, 120));
    }
    int edits = 2 * WRITERS_PER_NODE * EDITS_PER_WRITER;
    assertEquals(edits, accepted.size());
    assertTrue(
        refused.get() >= 2 * WRITERS_PER_NODE - 1,
        "all writers began on revision 0, so all but one were refused at least once: " + refused);
    assertOneLinearHistory(room, edits, accepted);
  }

  @Test
  void aLeaseTakenThroughOneProcessIsFencedByAPreemptionThroughTheOther() {
    String docId = createDocument(A, TEXT);
    SseClient roomOnA = Await.result(SseClient.connect(vertx, cluster.httpPort(A), events(docId)));
    HttpResponse<Buffer> checkedOut =
        post(A, "/api/docs/" + docId + "/tools/canvas_check_out", null);
    assertEquals(200, checkedOut.statusCode(), checkedOut.bodyAsString());
    JsonObject lease = checkedOut.bodyAsJsonObject();
    long epoch = lease.getLong("canvas_epoch");
    String versionBefore = document(A, docId).getString("revisionId");

    assertRefused(
        post(B, "/api/docs/" + docId + "/tools/canvas_check_out", null), 409, "LOCK_NOT_AVAILABLE");
    JsonObject heldOnB = document(B, docId).getJsonObject("lease");
    assertTrue(heldOnB.getBoolean("held"), "process B sees the lease taken through A: " + heldOnB);

    HttpResponse<Buffer> preempted = post(B, "/api/docs/" + docId + "/lease/preempt", null);
    assertEquals(200, preempted.statusCode(), preempted.bodyAsString());
    JsonObject notice =
        Await.result(
                roomOnA.awaitEvent(
                    event ->
                        "doc:lease".equals(event.event())
                            && "preempted".equals(event.data().getString("state"))))
            .stream()
            .filter(event -> "preempted".equals(event.data().getString("state")))
            .findFirst()
            .map(SseEvent::data)
            .orElseThrow();
    assertEquals(docId, notice.getString("docId"), "A's stream hears B's preemption: " + notice);

    JsonObject delete = new JsonObject().put("start_line", 3).put("end_line", 3);
    assertRefused(
        post(
            A,
            "/api/docs/" + docId + "/tools/canvas_delete_lines",
            delete.copy().put("lease_id", lease.getString("lease_id")).put("canvas_epoch", epoch)),
        409,
        "STALE_EPOCH");
    assertRefused(
        post(
            A,
            "/api/docs/" + docId + "/tools/canvas_delete_lines",
            delete.copy().put("lease_id", lease.getString("lease_id"))),
        409,
        "STALE_EPOCH");
    for (int node : List.of(A, B)) {
      JsonObject read = document(node, docId);
      assertEquals(
          TEXT, read.getString("content"), "nothing written, as process " + node + " reads");
      assertEquals(versionBefore, read.getString("revisionId"));
      assertFalse(read.getJsonObject("lease").getBoolean("held"), read.encode());
      assertTrue(
          read.getJsonObject("lease").getLong("canvas_epoch") > epoch,
          "the preemption advanced the epoch: " + read.getJsonObject("lease"));
    }
    Await.result(roomOnA.close());
  }

  /**
   * A person's preemption through B reaches the loop running on A as the clustered {@code doc:lease}
   * notice: the loop stops then ({@code interruptedBy: preempted}), not at its next tool call, which
   * would fail {@code STALE_EPOCH} ({@code lease_lost}); it had not reached its write, and none follows.
   */
  @Test
  void aDocumentAgentLoopOnOneProcessStopsWhenAPersonPreemptsThroughTheOther() {
    String docId = createDocument(A, TEXT);
    String before = document(A, docId).getString("revisionId");
    SseClient roomOnA = Await.result(SseClient.connect(vertx, cluster.httpPort(A), events(docId)));
    String runId =
        instruct(
            A,
            docId,
            new JsonObject()
                .put("sessionId", "preempted-" + docId)
                .put("instruction", "/doc-fix teh => the"));
    awaitCallingModel(roomOnA, runId);

    HttpResponse<Buffer> preempted = post(B, "/api/docs/" + docId + "/lease/preempt", null);
    assertEquals(200, preempted.statusCode(), preempted.bodyAsString());
    JsonObject end = ended(roomOnA, runId);
    assertEquals("canceled", end.getString("state"), end.encode());
    assertEquals("preempted", end.getJsonObject("detail").getString("interruptedBy"), end.encode());
    for (int node : List.of(A, B)) {
      JsonObject read = document(node, docId);
      assertEquals(TEXT, read.getString("content"), "nothing written: " + read.encode());
      assertEquals(before, read.getString("revisionId"));
      assertFalse(read.getJsonObject("lease").getBoolean("held"), read.encode());
    }
    Await.result(roomOnA.close());
  }

  /**
   * A person's instruction through B while a loop runs on A preempts A's loop and starts at once (it
   * waits only for a loop of its own process); A's loop ends preempted, its check-in under its old
   * lease takes nothing from B's loop, which writes its fix.
   */
  @Test
  void anInstructionThroughOneProcessPreemptsALoopOnTheOtherAndRunsToItsEnd() {
    String docId = createDocument(A, TEXT);
    SseClient roomOnA = Await.result(SseClient.connect(vertx, cluster.httpPort(A), events(docId)));
    SseClient roomOnB = Await.result(SseClient.connect(vertx, cluster.httpPort(B), events(docId)));
    String onA =
        instruct(
            A,
            docId,
            new JsonObject()
                .put("sessionId", "first-" + docId)
                .put("instruction", "/doc-fix teh => the"));
    awaitCallingModel(roomOnA, onA);

    String onB =
        instruct(
            B,
            docId,
            new JsonObject()
                .put("sessionId", "second-" + docId)
                .put("instruction", "/doc-fix foo => bar"));
    JsonObject endA = ended(roomOnA, onA);
    assertEquals("canceled", endA.getString("state"), endA.encode());
    assertEquals("preempted", endA.getJsonObject("detail").getString("interruptedBy"));
    JsonObject endB = ended(roomOnB, onB);
    assertEquals("done", endB.getString("state"), endB.encode());
    assertEquals(0, endB.getJsonObject("detail").getInteger("failedToolCalls"), endB.encode());
    assertEquals(
        TEXT.replace("foo and more", "bar and more"),
        document(A, docId).getString("content"),
        "B's fix alone");
    assertFalse(document(B, docId).getJsonObject("lease").getBoolean("held"));
    Await.result(roomOnA.close());
    Await.result(roomOnB.close());
  }

  /**
   * The session's turns are in the store, so they show what process B did with process A's session:
   * B appends after A's turns, one numbering; and B's catch-up update holds the person's edit alone
   * (not A's agent edit, which A's turn already recorded), which B can only know from the revision A's
   * loop saved as last seen.
   */
  @Test
  void aDocumentAgentSessionStartedOnOneProcessGoesOnOnTheOtherWithItsHistory() {
    String docId = createDocument(A, TEXT);
    String sessionId = "travelling-" + docId;
    SseClient roomOnA = Await.result(SseClient.connect(vertx, cluster.httpPort(A), events(docId)));
    SseClient roomOnB = Await.result(SseClient.connect(vertx, cluster.httpPort(B), events(docId)));
    JsonObject body = new JsonObject().put("sessionId", sessionId);

    JsonObject onA =
        ended(roomOnA, instruct(A, docId, body.put("instruction", "/doc-fix teh => the")));
    assertEquals("done", onA.getString("state"), onA.encode());
    List<JsonObject> afterA = turns(sessionId);
    assertEquals("/doc-fix teh => the", afterA.get(0).getString("text"), "A began the session");
    assertEquals(1, updates(afterA).size(), "A's own edit, once: " + afterA);

    String revision = document(B, docId).getString("revisionId");
    String personText =
        TEXT.replace("teh intro", "the intro").replace("## Section", "## Person's section");
    HttpResponse<Buffer> edited =
        Await.result(
            cluster
                .http(B)
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject().put("content", personText).put("baseRevisionId", revision)));
    assertEquals(200, edited.statusCode(), edited.bodyAsString());

    JsonObject onB =
        ended(
            roomOnB,
            instruct(
                B,
                docId,
                new JsonObject()
                    .put("sessionId", sessionId)
                    .put("instruction", "/doc-fix foo => bar")));
    assertEquals("done", onB.getString("state"), onB.encode());
    List<JsonObject> afterB = turns(sessionId);
    assertEquals(afterA, afterB.subList(0, afterA.size()), "B appends after A's turns, unchanged");
    List<JsonObject> bTurns = afterB.subList(afterA.size(), afterB.size());
    List<String> bUpdates = updates(bTurns);
    assertEquals(2, bUpdates.size(), "the person's edit before B's turn, B's own after: " + bTurns);
    assertTrue(bUpdates.get(0).contains("-## Section\n+## Person's section\n"), bUpdates.get(0));
    assertFalse(
        bUpdates.get(0).contains("-teh intro"),
        "A's edit is not repeated: B diffed from the revision A's loop saw last");
    assertTrue(
        bTurns.stream().anyMatch(turn -> "/doc-fix foo => bar".equals(turn.getString("text"))),
        bTurns.toString());
    assertEquals(
        personText.replace("foo and more", "bar and more"),
        document(A, docId).getString("content"));

    HttpResponse<Buffer> delegated =
        post(
            A,
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", sessionId)
                .put("instruction", "/doc-fix nothing => here"));
    assertEquals(200, delegated.statusCode(), delegated.bodyAsString());
    assertEquals(docId, delegated.bodyAsJsonObject().getString("docId"), "the session's document");
    List<JsonObject> afterDelegated = turns(sessionId);
    assertTrue(afterDelegated.size() > afterB.size(), "A appended again: " + afterDelegated);
    assertEquals(afterB, afterDelegated.subList(0, afterB.size()));
    assertEquals(3, updates(afterDelegated).size(), "no edit since B's: no update repeated");

    String otherId = createDocument(B, TEXT);
    String otherBefore = document(B, otherId).getString("revisionId");
    assertRefused(
        post(
            B,
            "/api/docs/" + otherId + "/agent",
            new JsonObject().put("sessionId", sessionId).put("instruction", "/doc-fix foo => bar")),
        400,
        "INVALID_REQUEST");
    JsonObject other = document(A, otherId);
    assertEquals(otherBefore, other.getString("revisionId"), "nothing written");
    assertFalse(other.getJsonObject("lease").getBoolean("held"), "no lease left held");
    Await.result(roomOnA.close());
    Await.result(roomOnB.close());
  }

  // --- person edits ---

  /** One writer's edits through {@code node}, each sent again on the named revision until committed. */
  Future<List<String>> writer(
      int node, String room, String name, int edits, AtomicInteger refused) {
    List<String> committed = Collections.synchronizedList(new ArrayList<>());
    Promise<List<String>> done = Promise.promise();
    write(new Writer(node, room, name, edits, refused, committed, done), 0, 0L, 0);
    return done.future();
  }

  /** One writer: its process, room and name, its edits, and what it has committed so far. */
  record Writer(
      int node,
      String room,
      String name,
      int edits,
      AtomicInteger refused,
      List<String> committed,
      Promise<List<String>> done) {}

  /** Sends {@code writer}'s edit {@code edit} on {@code base}; on to the next once it is committed. */
  void write(Writer writer, int edit, long base, int tries) {
    if (edit == writer.edits()) {
      writer.done().complete(writer.committed());
      return;
    }
    if (tries == MAX_TRIES) {
      writer
          .done()
          .fail("writer " + writer.name() + " was refused " + tries + " times for one edit");
      return;
    }
    String id = "shape:" + writer.name() + "-" + edit;
    change(writer.node(), writer.room(), id, base)
        .onComplete(
            sent -> {
              if (sent.failed()) {
                writer.done().fail(sent.cause());
                return;
              }
              HttpResponse<Buffer> answer = sent.result();
              try {
                JsonObject body = answer.bodyAsJsonObject();
                if (answer.statusCode() == 200) {
                  assertTrue(body.getBoolean("changed"), body.encode());
                  writer.committed().add(id);
                  write(writer, edit + 1, body.getLong("revision"), 0);
                } else {
                  assertRevisionConflict(answer);
                  assertTrue(body.getLong("revision") > base, "a newer revision: " + body);
                  writer.refused().incrementAndGet();
                  write(writer, edit, body.getLong("revision"), tries + 1);
                }
              } catch (RuntimeException | AssertionError wrong) {
                writer.done().fail(wrong);
              }
            });
  }

  /**
   * The store's history of {@code room} is revisions 1..{@code count}, each putting one shape; the
   * shapes put are {@code accepted}, each once; both processes serve that board and history.
   */
  void assertOneLinearHistory(String room, int count, Set<String> accepted) {
    String where =
        " FROM " + database.schema() + ".canvas_board_revisions WHERE room_id = '" + room + "'";
    List<Long> stored =
        TestDatabase.queryStrings(database, "SELECT rev" + where + " ORDER BY rev").stream()
            .map(Long::valueOf)
            .toList();
    assertEquals(linear(count), stored, "revisions 1..n, each once, no gap");
    List<String> put = new ArrayList<>();
    for (String diff :
        TestDatabase.queryStrings(database, "SELECT diff::text" + where + " ORDER BY rev")) {
      JsonArray records = new JsonObject(diff).getJsonArray("put");
      assertEquals(1, records.size(), diff);
      put.add(records.getJsonObject(0).getString("id"));
    }
    assertEquals(accepted.size(), put.size(), "no edit applied twice: " + put);
    assertEquals(accepted, new TreeSet<>(put), "every accepted edit is one revision");

    JsonObject onA = board(A, room);
    JsonObject onB = board(B, room);
    assertEquals(count, onA.getLong("revision"));
    assertEquals(onA.getLong("revision"), onB.getLong("revision"));
    assertEquals(
        onA.getJsonArray("records"), onB.getJsonArray("records"), "one board, both served");
    Set<String> shapes = new TreeSet<>();
    for (Object record : onA.getJsonArray("records")) {
      String id = ((JsonObject) record).getString("id");
      if (id.startsWith("shape:")) {
        shapes.add(id);
      }
    }
    assertEquals(accepted, shapes, "the board holds every accepted edit");
    for (int node : List.of(A, B)) {
      HttpResponse<Buffer> history =
          Await.result(
              cluster.http(node).get("/api/rooms/" + room + "/revisions?after=0&limit=500").send());
      assertEquals(200, history.statusCode(), history.bodyAsString());
      List<Long> revs =
          history.bodyAsJsonObject().getJsonArray("revisions").stream()
              .map(each -> ((JsonObject) each).getLong("rev"))
              .toList();
      assertEquals(linear(count), revs, "process " + node + " serves the same history");
    }
  }

  static List<Long> linear(int count) {
    List<Long> numbers = new ArrayList<>();
    for (long n = 1; n <= count; n++) {
      numbers.add(n);
    }
    return numbers;
  }

  Future<HttpResponse<Buffer>> change(int node, String room, String id, long base) {
    int n = Math.abs(id.hashCode() % 40);
    JsonObject shape =
        ShapeRecords.shape(
            id, "geo", 60 * n, 60 * (n / 8), "a1", ShapeRecords.geoProps("rectangle", 40, 40, ""));
    return cluster
        .http(node)
        .post("/api/rooms/" + room + "/changes")
        .sendJsonObject(RecordDiff.putting(shape).toJson().put("baseRevision", base));
  }

  JsonObject board(int node, String room) {
    HttpResponse<Buffer> answer =
        Await.result(cluster.http(node).get("/api/rooms/" + room + "/board").send());
    assertEquals(200, answer.statusCode(), answer.bodyAsString());
    return answer.bodyAsJsonObject();
  }

  static void assertRevisionConflict(HttpResponse<Buffer> answer) {
    assertRefused(answer, 409, "REVISION_CONFLICT");
    assertTrue(answer.bodyAsJsonObject().containsKey("revision"), answer.bodyAsString());
  }

  // --- documents and the document agent ---

  String createDocument(int node, String content) {
    HttpResponse<Buffer> created =
        post(node, "/api/docs", new JsonObject().put("content", content));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject().getString("id");
  }

  JsonObject document(int node, String docId) {
    HttpResponse<Buffer> found = Await.result(cluster.http(node).get("/api/docs/" + docId).send());
    assertEquals(200, found.statusCode(), found.bodyAsString());
    return found.bodyAsJsonObject();
  }

  String instruct(int node, String docId, JsonObject body) {
    HttpResponse<Buffer> started = post(node, "/api/docs/" + docId + "/agent", body);
    assertEquals(202, started.statusCode(), started.bodyAsString());
    return started.bodyAsJsonObject().getString("runId");
  }

  /** The final {@code agent:status} of run {@code runId} on {@code room}'s stream. */
  /** Waits until the loop {@code runId} is in a model call, as {@code room}'s stream tells. */
  static void awaitCallingModel(SseClient room, String runId) {
    Await.result(
        room.awaitEvent(
            event ->
                "agent:status".equals(event.event())
                    && "calling_model".equals(event.data().getString("state"))
                    && runId.equals(
                        event
                            .data()
                            .getJsonObject("detail", new JsonObject())
                            .getString("runId"))));
  }

  static JsonObject ended(SseClient room, String runId) {
    return Await.result(room.awaitEvent(event -> isEnd(event, runId)), 60).stream()
        .filter(event -> isEnd(event, runId))
        .findFirst()
        .orElseThrow()
        .data();
  }

  static boolean isEnd(SseEvent event, String runId) {
    return "agent:status".equals(event.event())
        && runId.equals(event.data().getJsonObject("detail", new JsonObject()).getString("runId"))
        && List.of("done", "canceled", "error").contains(event.data().getString("state"));
  }

  /** The session's turns as the store holds them, in their order. */
  List<JsonObject> turns(String sessionId) {
    return TestDatabase.queryStrings(
            database,
            "SELECT turn FROM "
                + database.schema()
                + ".canvas_doc_agent_turns WHERE session_id = '"
                + sessionId
                + "' ORDER BY seq")
        .stream()
        .map(JsonObject::new)
        .toList();
  }

  /** The hidden canvas-update messages among {@code turns}, in order. */
  static List<String> updates(List<JsonObject> turns) {
    return turns.stream()
        .filter(turn -> "user".equals(turn.getString("kind")))
        .map(turn -> turn.getString("text"))
        .filter(text -> text.startsWith("Canvas update (do not display to user)."))
        .toList();
  }

  static String events(String roomId) {
    return "/api/rooms/" + roomId + "/events";
  }

  HttpResponse<Buffer> post(int node, String path, JsonObject body) {
    return Await.result(
        cluster
            .http(node)
            .post(path)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body == null ? new JsonObject() : body));
  }

  static void assertRefused(HttpResponse<Buffer> answer, int status, String code) {
    assertEquals(status, answer.statusCode(), answer.bodyAsString());
    assertEquals(
        code,
        answer.bodyAsJsonObject().getJsonObject("error").getString("code"),
        answer.bodyAsString());
  }
}
