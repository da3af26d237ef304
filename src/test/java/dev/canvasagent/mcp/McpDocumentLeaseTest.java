package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpClients;
import dev.canvasagent.support.McpClients.Client;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A document's lease held by an MCP client nobody here wrote (the official TypeScript SDK over
 * Streamable HTTP, auth on), against a person using the HTTP API: the person makes the document, the
 * client checks it out, reads it and patches it; the person's edit ({@code PUT /api/docs/{id}}) takes
 * the lease back, and the client's next write with the old lease is refused as a tool error naming the
 * lease problem, leaving the person's text exactly. A patch that does not apply changes nothing. One
 * server and one Node process for the class; each test makes a document of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpDocumentLeaseTest {
  static final String ROOM = "mcp-docs";
  static final String TEXT = "# Plan\n\nStep one\nStep two\n\n## Later\n\nStep three\n";

  /** Step two becomes Step 2: a hunk with its three lines of context each side, as diff -u writes. */
  static final String PATCH_STEP_TWO =
      "--- a/plan.md\n+++ b/plan.md\n"
          + "@@ -1,7 +1,7 @@\n # Plan\n \n Step one\n-Step two\n+Step 2\n \n ## Later\n \n";

  /** The title becomes Roadmap: a hunk at the document's start, with its trailing context. */
  static final String PATCH_TITLE =
      "@@ -1,4 +1,4 @@\n-# Plan\n+# Roadmap\n \n Step one\n Step two\n";

  Vertx vertx;
  TestServer server;
  McpClients mcp;
  Client client;
  String person;

  @BeforeAll
  void start() {
    mcp = McpClients.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    TestTokens tokens = new TestTokens(vertx);
    // Two subjects: the client is an agent acting for one, the person who edits is another.
    client =
        mcp.http(
            "docs",
            "http://127.0.0.1:" + server.port() + "/mcp",
            tokens.token("mcp-agent", Role.EDITOR, ROOM));
    person = tokens.token("alice", Role.EDITOR, ROOM);
  }

  @AfterAll
  void stop() {
    if (mcp != null) {
      mcp.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  /** A document made by the person over HTTP; its id. */
  String create() {
    HttpResponse<Buffer> created =
        Await.result(
            server
                .http()
                .post("/api/docs")
                .putHeader("authorization", TestTokens.bearer(person))
                .sendJsonObject(
                    new JsonObject()
                        .put("content", TEXT)
                        .put("roomId", ROOM)
                        .put("title", "Plan")));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject().getString("id");
  }

  /** {@code GET /api/docs/{id}} as the person. */
  JsonObject document(String docId) {
    HttpResponse<Buffer> got =
        Await.result(
            server
                .http()
                .get("/api/docs/" + docId)
                .putHeader("authorization", TestTokens.bearer(person))
                .send());
    assertEquals(200, got.statusCode(), got.bodyAsString());
    return got.bodyAsJsonObject();
  }

  JsonObject tool(String name, String docId, JsonObject arguments) {
    return client.callTool(name, arguments.copy().put("docId", docId));
  }

  static JsonObject succeeded(JsonObject result) {
    assertFalse(result.getBoolean("isError", false), result.encode());
    return result.getJsonObject("structuredContent");
  }

  static JsonObject refused(JsonObject result) {
    assertTrue(result.getBoolean("isError", false), result.encode());
    JsonObject error = result.getJsonObject("structuredContent").getJsonObject("error");
    assertNotNull(error, result.encode());
    // The text content says the same for clients that show only content.
    assertTrue(
        result
            .getJsonArray("content")
            .getJsonObject(0)
            .getString("text")
            .startsWith(error.getString("code")),
        result.encode());
    return error;
  }

  @Test
  void theClientPatchesUnderItsLeaseUntilAPersonsEditTakesItBack() {
    String docId = create();

    JsonObject lease = succeeded(tool("canvas_check_out", docId, new JsonObject()));
    String leaseId = lease.getString("lease_id");
    assertNotNull(leaseId, lease.encode());
    long epoch = lease.getLong("canvas_epoch");
    assertTrue(document(docId).getJsonObject("lease").getBoolean("held"), "the lease is held");

    JsonObject read =
        succeeded(tool("canvas_read_all", docId, new JsonObject().put("lease_id", leaseId)));
    assertEquals(TEXT, read.getString("content"));

    String patched = TEXT.replace("Step two\n", "Step 2\n");
    JsonObject applied =
        succeeded(
            tool(
                "canvas_apply_patch",
                docId,
                new JsonObject()
                    .put("lease_id", leaseId)
                    .put("canvas_epoch", epoch)
                    .put("patch", PATCH_STEP_TWO)));
    JsonObject afterPatch = document(docId);
    assertEquals(patched, afterPatch.getString("content"));
    assertEquals(afterPatch.getString("revisionId"), applied.getString("revision_id"));

    // A person edits the document over HTTP: their edit preempts the client's lease.
    String persons = patched + "\nA person's line\n";
    HttpResponse<Buffer> edited =
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .putHeader("authorization", TestTokens.bearer(person))
                .sendJsonObject(
                    new JsonObject()
                        .put("content", persons)
                        .put("baseRevisionId", afterPatch.getString("revisionId"))));
    assertEquals(200, edited.statusCode(), edited.bodyAsString());
    String personsRevision = edited.bodyAsJsonObject().getString("revisionId");

    // The client's next write with the old lease, with or without its epoch, is refused.
    JsonObject withoutEpoch =
        refused(
            tool(
                "canvas_apply_patch",
                docId,
                new JsonObject()
                    .put("lease_id", leaseId)
                    // A patch that would apply to the person's text: only the lease is wrong.
                    .put(
                        "patch",
                        "@@ -1,4 +1,4 @@\n-# Plan\n+# Agent's plan\n \n Step one\n Step 2\n")));
    assertEquals("STALE_EPOCH", withoutEpoch.getString("code"), withoutEpoch.encode());
    JsonObject withEpoch =
        refused(
            tool(
                "canvas_insert_lines",
                docId,
                new JsonObject()
                    .put("lease_id", leaseId)
                    .put("canvas_epoch", epoch)
                    .put("insert_after_line", 0)
                    .put("content", "late")));
    assertEquals("STALE_EPOCH", withEpoch.getString("code"), withEpoch.encode());

    JsonObject after = document(docId);
    assertEquals(persons, after.getString("content"), "exactly the person's version");
    assertEquals(personsRevision, after.getString("revisionId"));
    assertFalse(after.getJsonObject("lease").getBoolean("held"), after.encode());
  }

  @Test
  void aPatchThatDoesNotApplyIsRejectedWholeAndChangesNothing() {
    String docId = create();
    JsonObject lease = succeeded(tool("canvas_check_out", docId, new JsonObject()));
    String leaseId = lease.getString("lease_id");
    JsonObject before = document(docId);

    // The first hunk would apply; the second names a line the document does not have.
    JsonObject error =
        refused(
            tool(
                "canvas_apply_patch",
                docId,
                new JsonObject()
                    .put("lease_id", leaseId)
                    .put(
                        "patch",
                        PATCH_TITLE + "@@ -5,4 +5,4 @@\n \n ## Later\n \n-Step nine\n+Step 9\n")));
    assertEquals("PATCH_REJECTED", error.getString("code"), error.encode());
    assertTrue(error.getString("message").contains("CONTEXT_MISMATCH"), error.encode());

    JsonObject after = document(docId);
    assertEquals(TEXT, after.getString("content"), "not even the first hunk");
    assertEquals(before.getString("revisionId"), after.getString("revisionId"));

    // The lease survived the refusal: the same client still writes with it.
    JsonObject applied =
        succeeded(
            tool(
                "canvas_apply_patch",
                docId,
                new JsonObject().put("lease_id", leaseId).put("patch", PATCH_TITLE)));
    assertNotEquals(before.getString("revisionId"), applied.getString("revision_id"));
    assertEquals(TEXT.replace("# Plan", "# Roadmap"), document(docId).getString("content"));
  }
}
