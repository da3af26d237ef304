package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With PostgreSQL a document outlives the server: content, revisions, snapshots, undo stack and epoch. */
class DocumentDurabilityTest {
  Vertx vertx;
  DatabaseConfig database;

  @BeforeEach
  void open() {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
  }

  @AfterEach
  void close() {
    Await.result(vertx.close());
    TestDatabase.drop(database);
  }

  static JsonObject ok(HttpResponse<Buffer> response) {
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  static HttpResponse<Buffer> post(TestServer server, String path, JsonObject body) {
    return Await.result(
        server
            .http()
            .post(path)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }

  @Test
  void aRestartKeepsTheDocumentItsHistoryAndItsUndoStack() {
    TestServer first = TestServer.start(vertx, Optional.of(database));
    String docId =
        post(first, "/api/docs", new JsonObject().put("content", "a\nb\n"))
            .bodyAsJsonObject()
            .getString("id");
    JsonObject lease =
        ok(post(first, "/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject()));
    JsonObject args =
        new JsonObject()
            .put("lease_id", lease.getString("lease_id"))
            .put("canvas_epoch", lease.getLong("canvas_epoch"));
    JsonObject snapshot =
        ok(
            post(
                first,
                "/api/docs/" + docId + "/tools/canvas_save_snapshot",
                args.copy().put("label", "start")));
    ok(
        post(
            first,
            "/api/docs/" + docId + "/tools/canvas_replace_lines",
            args.copy().put("start_line", 2).put("end_line", 2).put("new_content", "B")));
    ok(post(first, "/api/docs/" + docId + "/lease/preempt", new JsonObject()));
    Await.result(first.stop());

    TestServer second = TestServer.start(vertx, Optional.of(database));
    JsonObject document = ok(Await.result(second.http().get("/api/docs/" + docId).send()));
    assertEquals("a\nB\n", document.getString("content"));
    assertEquals(1, document.getInteger("undoDepth"));
    assertEquals(1, document.getJsonObject("lease").getLong("canvas_epoch"));
    assertEquals(
        snapshot.getString("snapshot_id"),
        document.getJsonArray("snapshots").getJsonObject(0).getString("snapshot_id"));
    JsonObject history =
        ok(Await.result(second.http().get("/api/docs/" + docId + "/revisions").send()));
    assertEquals(2, history.getJsonArray("revisions").size());
    assertEquals("replace", history.getJsonArray("diffs").getJsonObject(0).getString("operation"));

    JsonObject again =
        ok(post(second, "/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject()));
    assertEquals(1, again.getLong("canvas_epoch"));
    JsonObject undone =
        ok(
            post(
                second,
                "/api/docs/" + docId + "/tools/canvas_undo",
                new JsonObject()
                    .put("lease_id", again.getString("lease_id"))
                    .put("canvas_epoch", 1)));
    assertEquals(lease.getString("revision_id_at_checkout"), undone.getString("revision_id"));
    Await.result(second.stop());
  }
}
