package dev.canvasagent.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PgIdempotencyTest extends IdempotencyContract {
  static DatabaseConfig database;

  @BeforeAll
  static void createSchema() {
    database = TestDatabase.freshSchema();
  }

  @AfterAll
  static void dropSchema() {
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  @Override
  Optional<DatabaseConfig> database() {
    return Optional.of(database);
  }

  @Override
  long rows(String table, String where) {
    return TestDatabase.queryLong(
        database, "SELECT count(*) FROM " + database.schema() + "." + table + " WHERE " + where);
  }

  /**
   * Another node on the same database, and a node started after this one stopped, derive the same ids
   * from a key and hold the first request's body to it.
   */
  @Test
  void nodesSharingTheDatabaseAndARestartAgreeOnAKeyAndItsRequest() {
    JsonObject request = new JsonObject().put("roomId", roomId).put("message", "draw a box");
    HttpResponse<Buffer> first = run(alice, request, "shared-node-1");
    assertEquals(202, first.statusCode(), first.bodyAsString());
    ended(first.bodyAsJsonObject().getString("runId"));
    JsonObject session = new JsonObject().put("roomId", roomId).put("title", "Plan");
    HttpResponse<Buffer> created =
        send(HttpMethod.POST, "/api/sessions", alice, session, "shared-node-2");
    assertEquals(201, created.statusCode(), created.bodyAsString());

    TestServer other =
        TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT).withDatabase(database()));
    try {
      assertEquals(
          first.bodyAsJsonObject(),
          send(other, HttpMethod.POST, "/api/canvas-agent/run", alice, request, "shared-node-1")
              .bodyAsJsonObject(),
          "the other node answers the first run");
      refused(
          send(
              other,
              HttpMethod.POST,
              "/api/canvas-agent/run",
              alice,
              request.copy().put("message", "draw a star"),
              "shared-node-1"),
          422,
          "IDEMPOTENCY_KEY_REUSED");
      assertEquals(
          created.bodyAsJsonObject(),
          send(other, HttpMethod.POST, "/api/sessions", alice, session, "shared-node-2")
              .bodyAsJsonObject());
      refused(
          send(
              other,
              HttpMethod.POST,
              "/api/sessions",
              alice,
              session.copy().put("title", "Other"),
              "shared-node-2"),
          422,
          "IDEMPOTENCY_KEY_REUSED");
    } finally {
      Await.result(other.stop());
    }

    Await.result(events.close());
    Await.result(server.stop());
    server =
        TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT).withDatabase(database()));
    events =
        Await.result(
            dev.canvasagent.support.SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + roomId + "/events",
                java.util.Map.of("authorization", TestTokens.bearer(admin))));
    assertEquals(
        first.bodyAsJsonObject(),
        run(alice, request, "shared-node-1").bodyAsJsonObject(),
        "after a restart too");
    refused(
        run(alice, request.copy().put("model", "debug/fake"), "shared-node-1"),
        422,
        "IDEMPOTENCY_KEY_REUSED");
    assertEquals(2, sessions(roomId).size());
  }
}
