package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Two servers on one PostgreSQL agree on the lease and the epoch: the store decides, not a node. */
class TwoNodeLeaseTest {
  @Test
  void twoNodesShareOneLeaseAndOneEpoch() {
    Vertx vertx = Vertx.vertx();
    DatabaseConfig database = TestDatabase.freshSchema();
    TestServer a = TestServer.start(vertx, Optional.of(database));
    TestServer b = TestServer.start(vertx, Optional.of(database));
    try {
      String docId =
          post(a, "/api/docs", new JsonObject().put("content", "x\ny\n"))
              .bodyAsJsonObject()
              .getString("id");
      List<HttpResponse<Buffer>> both =
          Await.result(
                  Future.all(
                      a.http()
                          .post("/api/docs/" + docId + "/tools/canvas_check_out")
                          .sendJsonObject(new JsonObject()),
                      b.http()
                          .post("/api/docs/" + docId + "/tools/canvas_check_out")
                          .sendJsonObject(new JsonObject())))
              .list();
      assertEquals(
          List.of(200, 409), both.stream().map(HttpResponse::statusCode).sorted().toList());
      JsonObject lease =
          both.stream()
              .filter(response -> response.statusCode() == 200)
              .findFirst()
              .orElseThrow()
              .bodyAsJsonObject();

      assertEquals(
          200, post(a, "/api/docs/" + docId + "/lease/preempt", new JsonObject()).statusCode());
      HttpResponse<Buffer> stale =
          post(
              b,
              "/api/docs/" + docId + "/tools/canvas_delete_lines",
              new JsonObject()
                  .put("lease_id", lease.getString("lease_id"))
                  .put("canvas_epoch", lease.getLong("canvas_epoch"))
                  .put("start_line", 1)
                  .put("end_line", 1));
      assertEquals(409, stale.statusCode());
      assertEquals(
          "STALE_EPOCH", stale.bodyAsJsonObject().getJsonObject("error").getString("code"));
      assertEquals(
          "x\ny\n",
          Await.result(b.http().get("/api/docs/" + docId).send())
              .bodyAsJsonObject()
              .getString("content"));
    } finally {
      Await.result(a.stop());
      Await.result(b.stop());
      Await.result(vertx.close());
      TestDatabase.drop(database);
    }
  }

  static HttpResponse<Buffer> post(TestServer server, String path, JsonObject body) {
    return Await.result(
        server
            .http()
            .post(path)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }
}
