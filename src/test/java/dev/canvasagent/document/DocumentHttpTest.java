package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Documents over HTTP against PostgreSQL: create, read and a person's edit; the lease tools and every
 * lease code; the line, patch, diff, snapshot and undo tools; and every refusal a 4xx that leaves the
 * stored document (read back from PostgreSQL) as it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentHttpTest {
  static final String TEXT = "# Title\n\nintro\n\n## Section\n\none\ntwo\nthree\n";
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    server = TestServer.start(vertx, Optional.of(database));
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

  HttpResponse<Buffer> post(String path, JsonObject body) {
    return Await.result(
        server
            .http()
            .post(path)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }

  HttpResponse<Buffer> tool(String docId, String tool, JsonObject args) {
    return post("/api/docs/" + docId + "/tools/" + tool, args);
  }

  JsonObject ok(HttpResponse<Buffer> response) {
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  static void refused(HttpResponse<Buffer> response, int status, String code) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    assertEquals(
        code,
        response.bodyAsJsonObject().getJsonObject("error").getString("code"),
        response.bodyAsString());
  }

  static String errorMessage(HttpResponse<Buffer> response) {
    return response.bodyAsJsonObject().getJsonObject("error").getString("message");
  }

  String create(String content) {
    HttpResponse<Buffer> created =
        post("/api/docs", new JsonObject().put("content", content).put("title", "Notes"));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject().getString("id");
  }

  JsonObject document(String docId) {
    return ok(server.get("/api/docs/" + docId));
  }

  /** The stored content and version, straight from PostgreSQL. */
  String stored(String docId) {
    return TestDatabase.queryLong(
            database,
            "SELECT version FROM "
                + database.schema()
                + ".canvas_documents WHERE id = '"
                + docId
                + "'")
        + ":"
        + TestDatabase.queryLong(
            database,
            "SELECT count(*) FROM "
                + database.schema()
                + ".canvas_document_revisions WHERE doc_id = '"
                + docId
                + "'");
  }

  JsonObject checkOut(String docId) {
    return ok(tool(docId, "canvas_check_out", new JsonObject()));
  }

  static JsonObject leased(JsonObject lease) {
    return new JsonObject()
        .put("lease_id", lease.getString("lease_id"))
        .put("canvas_epoch", lease.getLong("canvas_epoch"));
  }

  @Test
  void aDocumentIsCreatedReadAndEditedByAPersonFromItsCurrentRevision() {
    String docId = create(TEXT);
    JsonObject document = document(docId);
    assertEquals(TEXT, document.getString("content"));
    assertEquals(docId, document.getString("roomId"), "a document without a room is its own room");
    String revision = document.getString("revisionId");

    HttpResponse<Buffer> stale =
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject()
                        .put("content", "x\n")
                        .put("baseRevisionId", "0123456789abcdef")));
    refused(stale, 409, "REVISION_CONFLICT");
    assertEquals(
        revision,
        stale.bodyAsJsonObject().getString("revisionId"),
        "the conflict names the current revision");
    assertEquals(TEXT, document(docId).getString("content"));

    JsonObject edited =
        ok(
            Await.result(
                server
                    .http()
                    .put("/api/docs/" + docId)
                    .putHeader("content-type", "application/json")
                    .sendJsonObject(
                        new JsonObject().put("content", "x\n").put("baseRevisionId", revision))));
    assertNotEquals(revision, edited.getString("revisionId"));
    assertEquals("x\n", document(docId).getString("content"));
  }

  @Test
  void everyLeaseCodeOverHttp() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    assertEquals(
        document(docId).getString("revisionId"), lease.getString("revision_id_at_checkout"));
    assertTrue(lease.getLong("expires_at") > System.currentTimeMillis());
    refused(tool(docId, "canvas_check_out", new JsonObject()), 409, "LOCK_NOT_AVAILABLE");

    JsonObject stranger =
        new JsonObject()
            .put("lease_id", "lease-stranger")
            .put("canvas_epoch", lease.getLong("canvas_epoch"));
    String before = stored(docId);
    refused(
        tool(docId, "canvas_delete_lines", stranger.copy().put("start_line", 1).put("end_line", 1)),
        409,
        "LOCK_NOT_OWNED");

    JsonObject renewed = ok(tool(docId, "canvas_renew_lease", leased(lease)));
    assertTrue(renewed.getLong("expires_at") >= lease.getLong("expires_at"));

    ok(post("/api/docs/" + docId + "/lease/preempt", new JsonObject()));
    refused(
        tool(docId, "canvas_delete_lines", leased(lease).put("start_line", 1).put("end_line", 1)),
        409,
        "STALE_EPOCH");
    refused(tool(docId, "canvas_check_in", leased(lease)), 409, "STALE_EPOCH");
    assertEquals(before, stored(docId), "nothing written");
    assertEquals(TEXT, document(docId).getString("content"));

    JsonObject again = checkOut(docId);
    assertEquals(lease.getLong("canvas_epoch") + 1, again.getLong("canvas_epoch"));
    assertTrue(ok(tool(docId, "canvas_check_in", leased(again))).getBoolean("released"));
    assertFalse(document(docId).getJsonObject("lease").getBoolean("held"));
  }

  @Test
  void aPersonsEditPreemptsTheAgentMidSequenceAndTheLockIndicatorHearsIt() {
    String docId = create(TEXT);
    SseClient room = server.events(docId);
    JsonObject lease = checkOut(docId);
    ok(
        tool(
            docId,
            "canvas_replace_lines",
            leased(lease)
                .put("start_line", 3)
                .put("end_line", 3)
                .put("new_content", "agent intro")));
    String revision = document(docId).getString("revisionId");
    ok(
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject().put("content", "person\n").put("baseRevisionId", revision))));
    String after = stored(docId);
    refused(
        tool(
            docId,
            "canvas_replace_lines",
            leased(lease).put("start_line", 1).put("end_line", 1).put("new_content", "late")),
        409,
        "STALE_EPOCH");
    assertEquals(after, stored(docId));
    assertEquals("person\n", document(docId).getString("content"));
    List<SseClient.SseEvent> events =
        Await.result(
            room.awaitEvent(
                event ->
                    "doc:lease".equals(event.event())
                        && "preempted".equals(event.data().getString("state"))));
    assertTrue(events.stream().anyMatch(event -> "held".equals(event.data().getString("state"))));
    Await.result(room.close());
  }

  @Test
  void everyNewRevisionIsToldOnDocRevisionAndAWriteThatChangesNothingIsNot() {
    String docId = create(TEXT);
    SseClient room = server.events(docId);
    JsonObject lease = checkOut(docId);
    JsonObject replace =
        leased(lease).put("start_line", 3).put("end_line", 3).put("new_content", "agent intro");
    String written = ok(tool(docId, "canvas_replace_lines", replace)).getString("revision_id");
    assertFalse(ok(tool(docId, "canvas_replace_lines", replace)).getBoolean("changed"));
    String undone = ok(tool(docId, "canvas_undo", leased(lease))).getString("revision_id");
    ok(tool(docId, "canvas_check_in", leased(lease)));
    JsonObject same = new JsonObject().put("content", TEXT).put("baseRevisionId", undone);
    assertFalse(
        ok(Await.result(server.http().put("/api/docs/" + docId).sendJsonObject(same)))
            .getBoolean("changed"));
    String edited =
        ok(Await.result(
                server
                    .http()
                    .put("/api/docs/" + docId)
                    .sendJsonObject(
                        new JsonObject().put("content", "person\n").put("baseRevisionId", undone))))
            .getString("revisionId");
    List<JsonObject> told =
        Await.result(
                room.awaitEvent(
                    event ->
                        "doc:revision".equals(event.event())
                            && edited.equals(event.data().getString("revision"))))
            .stream()
            .filter(event -> "doc:revision".equals(event.event()))
            .map(SseClient.SseEvent::data)
            .toList();
    assertEquals(
        List.of(written, undone, edited),
        told.stream().map(event -> event.getString("revision")).toList(),
        "one doc:revision per new revision, none for the writes that changed nothing");
    for (JsonObject event : told) {
      assertEquals(docId, event.getString("docId"));
      assertEquals("local", event.getString("author"), event.encode());
      assertFalse(event.containsKey("content"), "never the text");
    }
    Await.result(room.close());
  }

  @Test
  void twoAgentsContendAndExactlyOneGetsTheLease() {
    String docId = create(TEXT);
    List<HttpResponse<Buffer>> both =
        Await.result(
                Future.all(
                    server
                        .http()
                        .post("/api/docs/" + docId + "/tools/canvas_check_out")
                        .sendJsonObject(new JsonObject()),
                    server
                        .http()
                        .post("/api/docs/" + docId + "/tools/canvas_check_out")
                        .sendJsonObject(new JsonObject())))
            .list();
    assertEquals(List.of(200, 409), both.stream().map(HttpResponse::statusCode).sorted().toList());
  }

  /** A read {@code tool} of lines {@code start}..{@code end}, without a lease. */
  JsonObject onLines(String docId, String tool, int start, int end) {
    return ok(tool(docId, tool, new JsonObject().put("start_line", start).put("end_line", end)));
  }

  /** canvas_search_replace of "two" and "three" to "Two" and "Three" (a regex with a group). */
  JsonObject capitalizeTwoAndThree(String docId, JsonObject lease) {
    return ok(
        tool(
            docId,
            "canvas_search_replace",
            leased(lease)
                .put("search_pattern", "t(wo|hree)")
                .put("regex", true)
                .put("replace_with", "T$1")));
  }

  @Test
  void lineToolsReadAndWriteByOneBasedLines() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    JsonObject grep =
        ok(tool(docId, "canvas_grep", new JsonObject().put("query", "^t").put("regex", true)));
    assertEquals(
        List.of(8, 9),
        grep.getJsonArray("matches").stream()
            .map(match -> ((JsonObject) match).getInteger("line"))
            .toList());
    assertEquals(
        "one\ntwo\n",
        ok(tool(
                docId,
                "canvas_read_lines",
                new JsonObject().put("start_line", 7).put("end_line", 8)))
            .getString("text"));
    JsonObject replaced =
        ok(
            tool(
                docId,
                "canvas_replace_lines",
                leased(lease)
                    .put("start_line", 7)
                    .put("end_line", 7)
                    .put("new_content", "ONE\nuno")));
    assertEquals(10, replaced.getInteger("new_line_count"));
    ok(
        tool(
            docId,
            "canvas_insert_lines",
            leased(lease).put("insert_after_line", 0).put("content", "top")));
    ok(tool(docId, "canvas_delete_lines", leased(lease).put("start_line", 2).put("end_line", 3)));
    JsonObject replacedAll = capitalizeTwoAndThree(docId, lease);
    assertEquals(2, replacedAll.getInteger("replacements"));
    JsonObject all = ok(tool(docId, "canvas_read_all", leased(lease)));
    assertEquals("top\nintro\n\n## Section\n\nONE\nuno\nTwo\nThree\n", all.getString("content"));
    assertEquals(all.getString("revision_id"), document(docId).getString("revisionId"));
    JsonObject selection =
        ok(
            tool(
                docId,
                "canvas_get_selection_context",
                new JsonObject()
                    .put("start_line", 6)
                    .put("end_line", 6)
                    .put("start_column", 2)
                    .put("end_column", 4)));
    assertEquals("NE", selection.getString("selected_text"));
    assertEquals("## Section", selection.getJsonObject("section").getString("text"));
    JsonObject content = onLines(docId, "canvas_get_content", 1, 1);
    assertEquals(
        "top", content.getJsonArray("numbered_lines").getJsonObject(0).getString("content"));

    String before = stored(docId);
    refused(
        tool(docId, "canvas_read_lines", new JsonObject().put("start_line", 5).put("end_line", 99)),
        400,
        "INVALID_REQUEST");
    refused(
        tool(docId, "canvas_delete_lines", leased(lease).put("start_line", 3).put("end_line", 2)),
        400,
        "INVALID_REQUEST");
    refused(
        tool(
            docId,
            "canvas_replace_lines",
            leased(lease).put("start_line", 40).put("end_line", 41).put("new_content", "x")),
        400,
        "INVALID_REQUEST");
    refused(
        tool(
            docId,
            "canvas_insert_lines",
            leased(lease).put("insert_after_line", 99).put("content", "x")),
        400,
        "INVALID_REQUEST");
    refused(
        tool(
            docId,
            "canvas_search_replace",
            leased(lease).put("search_pattern", "(").put("regex", true).put("replace_with", "")),
        400,
        "INVALID_REQUEST");
    assertEquals(before, stored(docId));
  }

  @Test
  void aPatchAppliesWholeOrIsRejectedNamingTheHunkAndLeavesTheDocumentUntouched() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    String revision = document(docId).getString("revisionId");
    String patch = "--- a/doc.md\n+++ b/doc.md\n@@ -6,3 +6,3 @@\n one\n-two\n+TWO\n three\n";
    JsonObject applied =
        ok(
            tool(
                docId,
                "canvas_apply_patch",
                leased(lease).put("patch", patch).put("base_revision_id", revision)));
    assertEquals(1, applied.getInteger("applied_hunks"));
    assertTrue(document(docId).getString("content").contains("TWO\n"));

    String before = stored(docId);
    String content = document(docId).getString("content");
    HttpResponse<Buffer> mismatch =
        tool(docId, "canvas_apply_patch", leased(lease).put("patch", patch));
    refused(mismatch, 422, "PATCH_REJECTED");
    assertTrue(
        mismatch.bodyAsJsonObject().getJsonObject("error").getString("message").contains("hunk 1"),
        mismatch.bodyAsString());
    refused(
        tool(docId, "canvas_apply_patch", leased(lease).put("patch", "")), 422, "PATCH_REJECTED");
    refused(
        tool(
            docId,
            "canvas_apply_patch",
            leased(lease).put("patch", "diff --git a/x b/x\nBinary files a/x and b/x differ\n")),
        422,
        "PATCH_REJECTED");
    refused(
        tool(
            docId,
            "canvas_apply_patch",
            leased(lease).put("patch", "--- a/doc.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-# Title\n")),
        422,
        "PATCH_REJECTED");
    refused(
        tool(
            docId,
            "canvas_apply_patch",
            leased(lease)
                .put(
                    "patch",
                    patch.replace("TWO", "2")
                        + "--- a/other.md\n+++ b/other.md\n@@ -1 +1 @@\n-a\n+b\n")),
        422,
        "PATCH_REJECTED");
    refused(
        tool(
            docId,
            "canvas_apply_patch",
            leased(lease).put("patch", patch).put("base_revision_id", revision)),
        409,
        "REVISION_CONFLICT");
    assertEquals(before, stored(docId));
    assertEquals(content, document(docId).getString("content"));
  }

  @Test
  void aPatchAsAModelWritesItFencedWithProseAndInTwoSectionsApplies() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    String patch =
        "Here is the patch:\n\n```diff\n--- a/doc.md\n+++ b/doc.md\n@@ -6,3 +6,3 @@\n one\n-two\n"
            + "+TWO\n three\n```\n\nThen, on top of it:\n\n```patch\n@@ -6,3 +6,3 @@\n one\n-TWO\n"
            + "+2\n three\n```\n\nThis changes two to 2.";
    JsonObject applied = ok(tool(docId, "canvas_apply_patch", leased(lease).put("patch", patch)));
    assertEquals(2, applied.getInteger("applied_hunks"));
    assertEquals(TEXT.replace("two", "2"), document(docId).getString("content"));

    String before = stored(docId);
    HttpResponse<Buffer> unfinished =
        tool(
            docId,
            "canvas_apply_patch",
            leased(lease).put("patch", "```diff\n@@ -6,3 +6,3 @@\n one\n-2\n+two\n```\n"));
    refused(unfinished, 422, "PATCH_REJECTED");
    assertTrue(
        unfinished
            .bodyAsJsonObject()
            .getJsonObject("error")
            .getString("message")
            .startsWith(
                "HUNK_COUNT_MISMATCH: hunk 1, patch line 6: the fence closes inside the hunk"),
        unfinished.bodyAsString());
    assertEquals(before, stored(docId));
    assertEquals(TEXT.replace("two", "2"), document(docId).getString("content"));
  }

  @Test
  void undoRedoSnapshotAndDiffRoundTrip() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    String original = document(docId).getString("revisionId");
    JsonObject snapshot =
        ok(
            tool(
                docId,
                "canvas_save_snapshot",
                leased(lease).put("label", "v1").put("description", "before")));
    assertEquals(9, snapshot.getInteger("line_count"));
    assertEquals(
        snapshot.getLong("created_at"),
        java.time.Instant.parse(snapshot.getString("timestamp")).toEpochMilli(),
        "seed 001's timestamp");
    ok(tool(docId, "canvas_delete_lines", leased(lease).put("start_line", 1).put("end_line", 2)));
    JsonObject diff = ok(tool(docId, "canvas_get_diff", new JsonObject()));
    assertTrue(diff.getString("diff").contains("-# Title\n"), diff.encodePrettily());
    assertTrue(diff.getBoolean("has_changes"));
    JsonObject split =
        ok(
            tool(
                docId,
                "canvas_get_diff",
                new JsonObject().put("format", "split").put("from_revision_id", original)));
    JsonObject change = split.getJsonArray("changes").getJsonObject(0);
    assertEquals("delete", change.getString("type"));
    assertEquals(1, change.getInteger("line"));
    assertEquals("# Title\n", change.getString("before"));
    assertFalse(change.containsKey("after"), change.encode());

    JsonObject undone = ok(tool(docId, "canvas_undo", leased(lease)));
    assertEquals(original, undone.getString("revision_id"));
    assertEquals(
        new JsonObject().put("type", "delete").put("lines_affected", new JsonArray(List.of(1, 2))),
        undone.getJsonObject("undone_action"));
    assertTrue(undone.getBoolean("can_redo"));
    JsonObject redone = ok(tool(docId, "canvas_redo", leased(lease)));
    assertNotEquals(original, redone.getString("revision_id"));
    assertEquals(
        new JsonObject().put("type", "delete").put("lines_affected", new JsonArray(List.of(1, 2))),
        redone.getJsonObject("redone_action"));
    assertTrue(redone.getBoolean("can_undo"));
    assertFalse(redone.getBoolean("can_redo"));
    refused(tool(docId, "canvas_redo", leased(lease)), 400, "INVALID_REQUEST");
    JsonObject reverted =
        ok(
            tool(
                docId,
                "canvas_revert_to_snapshot",
                leased(lease).put("snapshot_id", snapshot.getString("snapshot_id"))));
    assertEquals(original, reverted.getString("revision_id"));
    assertEquals(
        new JsonObject()
            .put("snapshot_id", snapshot.getString("snapshot_id"))
            .put("timestamp", snapshot.getString("timestamp"))
            .put("label", "v1"),
        reverted.getJsonObject("reverted_to"));
    assertTrue(reverted.getString("diff").contains("+# Title\n"), reverted.getString("diff"));
    JsonObject unchanged = ok(tool(docId, "canvas_get_diff", new JsonObject()));
    assertEquals("", unchanged.getString("diff"), "no change since the snapshot");
    assertFalse(unchanged.getBoolean("has_changes"));
    assertEquals(
        "revert",
        ok(tool(docId, "canvas_undo", leased(lease)))
            .getJsonObject("undone_action")
            .getString("type"));
    refused(
        tool(docId, "canvas_revert_to_snapshot", leased(lease).put("snapshot_id", "snap-none")),
        404,
        "NOT_FOUND");
  }

  @Test
  void theToolsAnswerInTheSeedsNamesToo() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    assertTrue(
        ok(tool(docId, "canvas_grep", new JsonObject().put("query", "one"))).getBoolean("success"),
        "seed 001's success beside ok, on reads");
    JsonObject replaced =
        ok(
            tool(
                docId,
                "canvas_replace_lines",
                leased(lease).put("start_line", 7).put("end_line", 7).put("new_content", "ONE")));
    assertTrue(replaced.getBoolean("success"));
    assertEquals(
        new JsonObject().put("before", "one\n").put("after", "ONE"),
        replaced.getJsonObject("diff"));
    JsonObject searched = capitalizeTwoAndThree(docId, lease);
    assertEquals(2, searched.getInteger("replacements_made"));
    assertEquals(List.of(8, 9), searched.getJsonArray("affected_lines").getList());
    assertEquals(
        List.of(
            new JsonObject().put("line", 8).put("before", "two").put("after", "Two"),
            new JsonObject().put("line", 9).put("before", "three").put("after", "Three")),
        searched.getJsonArray("diffs").stream().toList());

    JsonObject selection = onLines(docId, "canvas_get_selection_context", 8, 8);
    assertEquals(
        new JsonObject()
            .put("content", "Two\n")
            .put("start_line", 8)
            .put("end_line", 8)
            .put("language", "markdown"),
        selection.getJsonObject("selection"));
    assertEquals(
        new JsonObject()
            .put("before", "intro\n\n## Section\n\nONE\n")
            .put("after", "Three\n")
            .put("full_content", document(docId).getString("content")),
        selection.getJsonObject("context"),
        "five lines before, and the one after");
    assertEquals(
        "From the canvas, line 8 (section \"## Section\"):\n```markdown\nTwo\n```",
        selection.getString("formatted_for_chat"));
  }

  @Test
  void aCatastrophicRegexEndsQuicklyWithAClearError() {
    String docId = create("a".repeat(40) + "!\n");
    long started = System.nanoTime();
    HttpResponse<Buffer> response =
        tool(docId, "canvas_grep", new JsonObject().put("query", "((a+)+)+$").put("regex", true));
    refused(response, 400, "INVALID_REQUEST");
    assertTrue(
        response
            .bodyAsJsonObject()
            .getJsonObject("error")
            .getString("message")
            .contains("took longer than"));
    assertTrue((System.nanoTime() - started) / 1_000_000 < 5_000, "bounded");
  }

  @Test
  void badRequestsAreRefusedAndChangeNothing() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    String before = stored(docId);
    refused(tool(docId, "canvas_fly", new JsonObject()), 404, "NOT_FOUND");
    refused(
        tool(
            docId, "canvas_delete_lines", new JsonObject().put("start_line", 1).put("end_line", 1)),
        400,
        "INVALID_REQUEST");
    refused(
        tool(docId, "canvas_delete_lines", leased(lease).put("start_line", 0).put("end_line", 1)),
        400,
        "INVALID_REQUEST");
    refused(tool(docId, "canvas_undo", leased(lease).put("extra", true)), 400, "INVALID_REQUEST");
    refused(
        Await.result(
            server
                .http()
                .post("/api/docs/" + docId + "/tools/canvas_undo")
                .putHeader("content-type", "application/json")
                .sendBuffer(Buffer.buffer("{not json"))),
        400,
        "INVALID_JSON");
    refused(tool(docId, "canvas_undo", leased(lease)), 400, "INVALID_REQUEST");
    refused(tool("doc-missing", "canvas_check_out", new JsonObject()), 404, "NOT_FOUND");
    refused(server.get("/api/docs/doc-missing"), 404, "NOT_FOUND");
    refused(server.get("/api/docs/bad.id"), 400, "INVALID_REQUEST");
    refused(post("/api/docs", new JsonObject()), 400, "INVALID_REQUEST");
    refused(
        post("/api/docs", new JsonObject().put("content", "x").put("roomId", "no.dots")),
        400,
        "INVALID_REQUEST");
    refused(
        post("/api/docs", new JsonObject().put("content", "x".repeat(1_048_577))),
        413,
        "BODY_TOO_LARGE");
    refused(
        tool(
            docId,
            "canvas_insert_lines",
            leased(lease).put("insert_after_line", 0).put("content", "y".repeat(1_048_577))),
        413,
        "BODY_TOO_LARGE");
    refused(
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(new JsonObject().put("content", "x"))),
        400,
        "INVALID_REQUEST");
    String revision = document(docId).getString("revisionId");
    refused(
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject()
                        .put("content", "x".repeat(1_048_577))
                        .put("baseRevisionId", revision))),
        413,
        "BODY_TOO_LARGE");
    refused(
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject().put("content", "nul\u0000").put("baseRevisionId", revision))),
        400,
        "INVALID_REQUEST");
    refused(
        post("/api/docs", new JsonObject().put("content", "nul\u0000")), 400, "INVALID_REQUEST");
    refused(
        tool(
            docId,
            "canvas_insert_lines",
            leased(lease).put("insert_after_line", 0).put("content", "\u0000")),
        400,
        "INVALID_REQUEST");
    refused(
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "text/plain")
                .sendBuffer(Buffer.buffer("x"))),
        415,
        "UNSUPPORTED_MEDIA_TYPE");
    refused(post("/api/docs/doc-missing/lease/preempt", new JsonObject()), 404, "NOT_FOUND");
    refused(server.get("/api/docs/" + docId + "/revisions?limit=0"), 400, "INVALID_REQUEST");
    assertTrue(
        document(docId).getJsonObject("lease").getBoolean("held"),
        "refusals do not preempt the lease");
    assertEquals(before, stored(docId));
    assertEquals(TEXT, document(docId).getString("content"));
  }

  /** Found by the fuzz pass: a read carrying the lease used to renew it before the read was refused. */
  @Test
  void aRefusedReadRenewsNoLease() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    long expiresAt = document(docId).getJsonObject("lease").getLong("expires_at");
    // Let the clock move on, so a renewal would show in expires_at.
    Await.result(vertx.timer(20));

    refused(
        tool(docId, "canvas_read_lines", leased(lease).put("start_line", 50).put("end_line", 60)),
        400,
        "INVALID_REQUEST");
    refused(
        tool(docId, "canvas_get_diff", leased(lease).put("from_revision_id", "0123456789abcdef")),
        404,
        "NOT_FOUND");
    refused(tool("doc-missing", "canvas_get_diff", new JsonObject()), 404, "NOT_FOUND");
    assertEquals(
        expiresAt,
        document(docId).getJsonObject("lease").getLong("expires_at"),
        "the refusals renewed nothing");

    ok(tool(docId, "canvas_read_lines", leased(lease).put("start_line", 1).put("end_line", 1)));
    assertTrue(
        document(docId).getJsonObject("lease").getLong("expires_at") > expiresAt,
        "an answered read renews the lease");
  }

  @Test
  void theToolsAreListedWithTheirSchemas() {
    JsonObject tools = ok(server.get("/api/docs/tools"));
    assertEquals(18, tools.getJsonArray("tools").size());
    JsonObject patch =
        tools.getJsonArray("tools").stream()
            .map(JsonObject.class::cast)
            .filter(tool -> tool.getString("name").equals("canvas_apply_patch"))
            .findFirst()
            .orElseThrow();
    assertEquals("write", patch.getString("kind"));
    assertEquals(
        List.of("lease_id", "patch"),
        patch.getJsonObject("parameters").getJsonArray("required").getList(),
        "seed 004's contract: lease_id and patch; base_revision_id and canvas_epoch optional");
    for (Object listed : tools.getJsonArray("tools")) {
      JsonObject tool = (JsonObject) listed;
      JsonObject parameters = tool.getJsonObject("parameters");
      String name = tool.getString("name");
      assertFalse(
          parameters.getJsonArray("required").contains("canvas_epoch"), name + " needs no epoch");
      assertFalse(
          parameters.getJsonArray("required").contains("base_revision_id"),
          name + " needs no base revision");
      JsonObject epoch = parameters.getJsonObject("properties").getJsonObject("canvas_epoch");
      if (!name.equals("canvas_check_out")) {
        assertTrue(
            epoch.getString("description").contains("When omitted"),
            name + " says what happens without canvas_epoch: " + epoch.encode());
      }
    }
  }

  @Test
  void aWriteWithoutCanvasEpochCommitsWhileTheLeaseIsLiveAndIsStaleAfterAPreemption() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    JsonObject onlyLease = new JsonObject().put("lease_id", lease.getString("lease_id"));
    JsonObject patched =
        ok(
            tool(
                docId,
                "canvas_apply_patch",
                onlyLease
                    .copy()
                    .put(
                        "patch",
                        "--- a/doc.md\n+++ b/doc.md\n@@ -2,3 +2,3 @@\n \n-intro\n+Intro\n \n")));
    assertTrue(patched.getBoolean("ok"));
    assertEquals(1, patched.getInteger("applied_hunks"));
    assertEquals(document(docId).getString("revisionId"), patched.getString("new_revision_id"));
    ok(
        tool(
            docId,
            "canvas_replace_lines",
            onlyLease
                .copy()
                .put("start_line", 7)
                .put("end_line", 7)
                .put("new_content", "ONE")
                .put("base_revision_id", patched.getString("new_revision_id"))));
    ok(tool(docId, "canvas_renew_lease", onlyLease));
    String live = document(docId).getString("content");
    assertEquals(TEXT.replace("intro", "Intro").replace("one", "ONE"), live);

    ok(post("/api/docs/" + docId + "/lease/preempt", new JsonObject()));
    String before = stored(docId);
    refused(
        tool(
            docId,
            "canvas_apply_patch",
            onlyLease.copy().put("patch", "@@ -1 +1 @@\n-# Title\n+x\n")),
        409,
        "STALE_EPOCH");
    refused(tool(docId, "canvas_undo", onlyLease), 409, "STALE_EPOCH");
    refused(tool(docId, "canvas_save_snapshot", onlyLease), 409, "STALE_EPOCH");
    refused(tool(docId, "canvas_renew_lease", onlyLease), 409, "STALE_EPOCH");
    refused(tool(docId, "canvas_check_in", onlyLease), 409, "STALE_EPOCH");
    checkOut(docId);
    refused(
        tool(
            docId, "canvas_delete_lines", onlyLease.copy().put("start_line", 1).put("end_line", 1)),
        409,
        "STALE_EPOCH");
    assertEquals(before, stored(docId), "nothing written after the preemption");
    assertEquals(live, document(docId).getString("content"));
    assertEquals(0, document(docId).getJsonArray("snapshots").size());
  }

  @Test
  void aBadCanvasEpochIsRefusedAndChangesNothing() {
    String docId = create(TEXT);
    JsonObject lease = checkOut(docId);
    long expiresAt = document(docId).getJsonObject("lease").getLong("expires_at");
    String before = stored(docId);
    JsonObject delete =
        new JsonObject()
            .put("lease_id", lease.getString("lease_id"))
            .put("start_line", 1)
            .put("end_line", 1);
    for (Object wrong : List.<Object>of("0", 1.5, -1, 9007199254740992L, true)) {
      HttpResponse<Buffer> refusal =
          tool(docId, "canvas_delete_lines", delete.copy().put("canvas_epoch", wrong));
      refused(refusal, 400, "INVALID_REQUEST");
      assertTrue(
          errorMessage(refusal).contains("canvas_epoch"), wrong + ": " + refusal.bodyAsString());
    }
    long epoch = lease.getLong("canvas_epoch");
    // 2^32 + the epoch: once read as an int, it was the epoch itself.
    for (long stale : List.of(epoch + 1, epoch + 4_294_967_296L)) {
      HttpResponse<Buffer> refusal =
          tool(docId, "canvas_delete_lines", delete.copy().put("canvas_epoch", stale));
      refused(refusal, 409, "STALE_EPOCH");
      assertTrue(
          errorMessage(refusal).contains("canvas_epoch " + stale + " is stale"),
          refusal.bodyAsString());
    }
    assertEquals(before, stored(docId), "nothing written");
    assertEquals(TEXT, document(docId).getString("content"));
    assertEquals(
        expiresAt,
        document(docId).getJsonObject("lease").getLong("expires_at"),
        "the refusals renewed nothing");
    ok(tool(docId, "canvas_delete_lines", delete.copy().put("canvas_epoch", epoch)));
  }
}
