package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ClusterProcesses;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two fat-jar processes clustered on loopback over one PostgreSQL schema, with low run limits set in
 * their environment and auth on (one secret, so a token works on either): a client, or a room, at its
 * runs-a-minute limit through one process is limited through the other, over real HTTP. Each test is
 * a client (a token's subject) and rooms of its own, so the tests share one cluster without sharing
 * an allowance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunLimitsAcrossProcessesIT {
  static final int A = 0;
  static final int B = 1;

  /**
   * Low, so a test is over its limit after a few runs; and slow to refill (a run back every 15 s for
   * a client, every 30 s for a room), so the runs of one test all fall within one refill interval
   * even on a busy machine.
   */
  static final int CLIENT_RUNS_PER_MINUTE = 4;

  static final int ROOM_RUNS_PER_MINUTE = 2;

  static final int BURST = 10;

  DatabaseConfig database;
  Vertx vertx;
  TestTokens tokens;
  ClusterProcesses cluster;

  @BeforeAll
  void start() {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    tokens = new TestTokens(vertx);
    Map<String, String> environment = new HashMap<>(TestTokens.ENVIRONMENT);
    environment.put("CANVAS_AGENT_RUNS_PER_MINUTE", String.valueOf(CLIENT_RUNS_PER_MINUTE));
    environment.put("CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", String.valueOf(ROOM_RUNS_PER_MINUTE));
    cluster = ClusterProcesses.start(vertx, 2, database, environment, Optional.of(tokens.admin()));
  }

  @AfterAll
  void stop() {
    ClusterProcesses.closeAll(cluster, vertx, database);
  }

  /** Three clients, each well within its own allowance: what binds is the room's. */
  @Test
  void aRoomAtItsLimitThroughOneProcessIsLimitedThroughTheOther() {
    String room = "limited-room";
    assertEquals(202, run(A, token("room-first"), room).statusCode());
    assertEquals(202, run(B, token("room-second"), room).statusCode());
    assertLimited(
        run(A, token("room-third"), room),
        "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE",
        ROOM_RUNS_PER_MINUTE);
    assertLimited(
        run(B, token("room-first"), room),
        "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE",
        ROOM_RUNS_PER_MINUTE);
    assertEquals(2, runsIn("'" + room + "'"), "a refused run starts nothing");
  }

  /**
   * Ten runs sent at once, five through each process, each in a room of its own: exactly the client's
   * allowance starts, wherever they went; then the client is limited through either process, for a
   * document-agent instruction too.
   */
  @Test
  void aClientAtItsLimitThroughOneProcessIsLimitedThroughTheOther() {
    String token = token("burster");
    String docId = createDocument(A, token);
    long version = document(A, token, docId).getLong("version");
    List<Future<HttpResponse<Buffer>>> sent = new ArrayList<>();
    for (int i = 0; i < BURST; i++) {
      sent.add(send(i % 2 == 0 ? A : B, token, "burst-" + i));
    }
    int started = 0;
    for (Future<HttpResponse<Buffer>> answer : sent) {
      HttpResponse<Buffer> response = Await.result(answer);
      if (response.statusCode() == 202) {
        started++;
      } else {
        assertLimited(response, "CANVAS_AGENT_RUNS_PER_MINUTE", CLIENT_RUNS_PER_MINUTE);
      }
    }
    assertEquals(CLIENT_RUNS_PER_MINUTE, started, "one allowance, counted once across both");

    assertLimited(
        run(A, token, "after-burst"), "CANVAS_AGENT_RUNS_PER_MINUTE", CLIENT_RUNS_PER_MINUTE);
    assertLimited(
        run(B, token, "after-burst"), "CANVAS_AGENT_RUNS_PER_MINUTE", CLIENT_RUNS_PER_MINUTE);
    assertLimited(
        post(
            B,
            token,
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "/doc-fix teh => the")),
        "CANVAS_AGENT_RUNS_PER_MINUTE",
        CLIENT_RUNS_PER_MINUTE);
    assertEquals(
        CLIENT_RUNS_PER_MINUTE,
        runsIn("SELECT 'burst-' || n FROM generate_series(0, " + (BURST - 1) + ") n")
            + runsIn("'after-burst'"),
        "a refused run starts nothing");
    JsonObject document = document(A, token, docId);
    assertFalse(
        document.getJsonObject("lease").getBoolean("held"), "no agent started: " + document);
    assertEquals(version, document.getLong("version"), "nothing written: " + document);
  }

  /**
   * As a single node answers ({@code EdgeLimitsTest}): 429, {@code RATE_LIMITED} naming {@code
   * setting}, and {@code Retry-After} at most the time one run takes to come back at {@code perMinute}.
   */
  static void assertLimited(HttpResponse<Buffer> response, String setting, int perMinute) {
    assertEquals(429, response.statusCode(), response.bodyAsString());
    long retryAfter = Long.parseLong(response.getHeader("Retry-After"));
    assertTrue(retryAfter >= 1 && retryAfter <= 60 / perMinute, "Retry-After " + retryAfter);
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(false, body.getBoolean("ok"));
    assertEquals("RATE_LIMITED", body.getJsonObject("error").getString("code"));
    assertTrue(body.getJsonObject("error").getString("message").contains(setting), body.encode());
  }

  /** An editor of every room and document, a client of its own. */
  String token(String subject) {
    long now = System.currentTimeMillis() / 1000;
    return tokens.signed(
        new JsonObject()
            .put("sub", subject)
            .put("role", "editor")
            .put("rooms", new JsonArray().add("*"))
            .put("docs", new JsonArray().add("*"))
            .put("iat", now)
            .put("exp", now + 3600));
  }

  /** The runs stored in the rooms {@code rooms} (an SQL list or subquery) names. */
  long runsIn(String rooms) {
    return TestDatabase.queryLong(
        database,
        "SELECT count(*) FROM "
            + database.schema()
            + ".canvas_agent_runs WHERE room_id IN ("
            + rooms
            + ")");
  }

  HttpResponse<Buffer> run(int node, String token, String roomId) {
    return Await.result(send(node, token, roomId));
  }

  Future<HttpResponse<Buffer>> send(int node, String token, String roomId) {
    return cluster
        .http(node)
        .post("/api/canvas-agent/run")
        .bearerTokenAuthentication(token)
        .putHeader("content-type", "application/json")
        .sendJsonObject(new JsonObject().put("roomId", roomId).put("message", "hello"));
  }

  String createDocument(int node, String token) {
    HttpResponse<Buffer> created =
        post(node, token, "/api/docs", new JsonObject().put("content", "teh intro\n"));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject().getString("id");
  }

  JsonObject document(int node, String token, String docId) {
    HttpResponse<Buffer> found =
        Await.result(
            cluster.http(node).get("/api/docs/" + docId).bearerTokenAuthentication(token).send());
    assertEquals(200, found.statusCode(), found.bodyAsString());
    return found.bodyAsJsonObject();
  }

  HttpResponse<Buffer> post(int node, String token, String path, JsonObject body) {
    return Await.result(
        cluster
            .http(node)
            .post(path)
            .bearerTokenAuthentication(token)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }
}
