package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The run limits are counted in PostgreSQL: when it cannot count, a run is refused (the limit bounds
 * spending, so it fails closed) with {@code 503 STORE_UNAVAILABLE} saying what could not be done,
 * never the driver's text, and nothing starts.
 */
class RunLimitStoreFailureTest {

  @Test
  void aRunTheStoreCannotCountIsRefusedAndStartsNothing() {
    DatabaseConfig database = TestDatabase.freshSchema();
    Vertx vertx = Vertx.vertx();
    TestServer server = TestServer.start(vertx, Optional.of(database));
    try {
      TestDatabase.execute(database, "DROP TABLE " + database.schema() + ".canvas_rate_limits");
      HttpResponse<Buffer> refused =
          server.postRun(new JsonObject().put("roomId", "uncounted").put("message", "hello"));
      assertEquals(503, refused.statusCode(), refused.bodyAsString());
      JsonObject error = refused.bodyAsJsonObject().getJsonObject("error");
      assertEquals("STORE_UNAVAILABLE", error.getString("code"));
      assertTrue(
          error.getString("message").startsWith("could not count the run against its limits"),
          error.encode());
      assertTrue(!error.getString("message").contains("canvas_rate_limits"), error.encode());
      assertEquals(
          0L,
          TestDatabase.queryLong(
              database, "SELECT count(*) FROM " + database.schema() + ".canvas_agent_runs"));
    } finally {
      Await.result(server.stop());
      Await.result(vertx.close());
      TestDatabase.drop(database);
    }
  }
}
