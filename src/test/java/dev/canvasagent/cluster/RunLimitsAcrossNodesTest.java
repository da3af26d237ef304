package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Two clustered nodes on one PostgreSQL schema count runs a minute against one allowance per client
 * and per room: a client, or a room, at its limit on one node is limited on the other, answered as a
 * single node answers (429, {@code Retry-After}, {@code RATE_LIMITED} naming the setting).
 */
class RunLimitsAcrossNodesTest {

  @Test
  void aClientOrARoomAtItsLimitOnOneNodeIsLimitedOnTheOther() {
    DatabaseConfig database = TestDatabase.freshSchema();
    Map<String, String> limits =
        Map.of("CANVAS_AGENT_RUNS_PER_MINUTE", "8", "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", "2");
    try (InJvmCluster cluster =
        InJvmCluster.start(2, TestServer.config(limits).withDatabase(Optional.of(database)))) {
      TestServer a = cluster.node(0);
      TestServer b = cluster.node(1);
      assertEquals(202, run(a, "limited-1").statusCode());
      assertEquals(202, run(b, "limited-1").statusCode());
      assertLimited(run(a, "limited-1"), "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", 60);
      assertLimited(run(b, "limited-1"), "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", 60);

      // The refused runs took nothing from the client, which has 6 of its 8 left: of 10 runs sent
      // at once, 5 through each node, exactly 6 start, wherever they went.
      List<Future<HttpResponse<Buffer>>> sent = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        sent.add(send(i % 2 == 0 ? a : b, "burst-" + i));
      }
      int started = 0;
      for (Future<HttpResponse<Buffer>> answer : sent) {
        HttpResponse<Buffer> response = Await.result(answer);
        if (response.statusCode() == 202) {
          started++;
        } else {
          assertLimited(response, "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
        }
      }
      assertEquals(6, started, "the client's allowance, counted once across both nodes");
      assertLimited(run(a, "limited-3"), "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
      assertLimited(run(b, "limited-3"), "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
      assertEquals(
          8L,
          TestDatabase.queryLong(
              database, "SELECT count(*) FROM " + database.schema() + ".canvas_agent_runs"),
          "a refused run starts nothing");
    } finally {
      TestDatabase.drop(database);
    }
  }

  /** As a single node answers ({@code EdgeLimitsTest}): 429, {@code Retry-After}, RATE_LIMITED naming {@code setting}. */
  static void assertLimited(HttpResponse<Buffer> response, String setting, long maxSeconds) {
    assertEquals(429, response.statusCode(), response.bodyAsString());
    long retryAfter = Long.parseLong(response.getHeader("Retry-After"));
    assertTrue(retryAfter >= 1 && retryAfter <= maxSeconds, "Retry-After " + retryAfter);
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(false, body.getBoolean("ok"));
    assertEquals("RATE_LIMITED", body.getJsonObject("error").getString("code"));
    assertTrue(body.getJsonObject("error").getString("message").contains(setting), body.encode());
  }

  static HttpResponse<Buffer> run(TestServer node, String roomId) {
    return Await.result(send(node, roomId));
  }

  static Future<HttpResponse<Buffer>> send(TestServer node, String roomId) {
    return node.http()
        .post("/api/canvas-agent/run")
        .putHeader("content-type", "application/json")
        .sendJsonObject(new JsonObject().put("roomId", roomId).put("message", "hello"));
  }
}
