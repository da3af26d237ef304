package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Leases with a short TTL: activity keeps one alive, silence lets it expire (announced on doc:lease). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeaseExpiryTest {
  static final int TTL_MS = 2_000;
  Vertx vertx;
  TestServer server;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server =
        TestServer.start(
            vertx, TestServer.config(Map.of("CANVAS_AGENT_LEASE_TTL_MS", String.valueOf(TTL_MS))));
  }

  @AfterAll
  void stop() {
    Await.result(server.stop());
    Await.result(vertx.close());
  }

  HttpResponse<Buffer> post(String path, JsonObject body) {
    return Await.result(
        server
            .http()
            .post(path)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }

  String create() {
    return post("/api/docs", new JsonObject().put("content", "one\ntwo\n"))
        .bodyAsJsonObject()
        .getString("id");
  }

  JsonObject checkOut(String docId) {
    HttpResponse<Buffer> response =
        post("/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject());
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  void pause(long ms) {
    Promise<Void> done = Promise.promise();
    vertx.setTimer(ms, fired -> done.complete());
    Await.result(done.future());
  }

  @Test
  void everyToolCallWithTheLeaseRenewsIt() {
    String docId = create();
    JsonObject lease = checkOut(docId);
    JsonObject args =
        new JsonObject()
            .put("lease_id", lease.getString("lease_id"))
            .put("canvas_epoch", lease.getLong("canvas_epoch"));
    for (int step = 0; step < 2; step++) {
      pause(TTL_MS * 6 / 10);
      HttpResponse<Buffer> read = post("/api/docs/" + docId + "/tools/canvas_read_all", args);
      assertEquals(200, read.statusCode(), "step " + step + ": " + read.bodyAsString());
    }
    HttpResponse<Buffer> write =
        post(
            "/api/docs/" + docId + "/tools/canvas_delete_lines",
            args.copy().put("start_line", 1).put("end_line", 1));
    assertEquals(200, write.statusCode(), write.bodyAsString());
  }

  @Test
  void aSilentLeaseExpiresIsAnnouncedAndItsWritesFail() {
    String docId = create();
    SseClient room = server.events(docId);
    JsonObject lease = checkOut(docId);
    Await.result(
        room.awaitEvent(
            event ->
                "doc:lease".equals(event.event())
                    && "expired".equals(event.data().getString("state"))));
    HttpResponse<Buffer> late =
        post(
            "/api/docs/" + docId + "/tools/canvas_delete_lines",
            new JsonObject()
                .put("lease_id", lease.getString("lease_id"))
                .put("canvas_epoch", lease.getLong("canvas_epoch"))
                .put("start_line", 1)
                .put("end_line", 1));
    assertEquals(409, late.statusCode());
    assertEquals("LEASE_EXPIRED", late.bodyAsJsonObject().getJsonObject("error").getString("code"));
    assertEquals(
        "one\ntwo\n",
        Await.result(server.http().get("/api/docs/" + docId).send())
            .bodyAsJsonObject()
            .getString("content"));
    assertTrue(
        checkOut(docId).getString("lease_id").startsWith("lease-"), "another agent may take it");
    Await.result(room.close());
  }
}
