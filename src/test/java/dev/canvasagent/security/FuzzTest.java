package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A seeded fuzz pass over every JSON endpoint and every inbound topic of the real server (memory
 * store): mutated and random bodies and frames, thousands of cases. No 5xx, no request left without
 * an answer, no state change after a refusal, and a bad frame gets an error frame, not a disconnect.
 * The seed is printed; {@code -Dcanvas.fuzz.seed=<n>} replays a pass, {@code -Dcanvas.fuzz.cases=<n>}
 * sets the cases per target.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FuzzTest {
  static final String SEED_PROPERTY = "canvas.fuzz.seed";
  static final String CASES_PROPERTY = "canvas.fuzz.cases";
  static final long DEFAULT_SEED = 20_261_122L;
  static final int DEFAULT_CASES = 80;
  static final int MAX_MESSAGE_BYTES = 32 * 1024;

  /**
   * Small limits, so oversized bodies and frames are cheap to send; limits on rates and connections
   * out of the way, so every case reaches the code under test; documents leases that outlast the pass.
   */
  static final Map<String, String> ENVIRONMENT =
      Map.ofEntries(
          Map.entry("CANVAS_AGENT_BODY_LIMIT_BYTES", String.valueOf(64 * 1024)),
          Map.entry("CANVAS_AGENT_DOCUMENT_MAX_BYTES", String.valueOf(64 * 1024)),
          Map.entry("CANVAS_AGENT_MAX_MESSAGE_BYTES", String.valueOf(MAX_MESSAGE_BYTES)),
          Map.entry("CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND", "10000"),
          Map.entry("CANVAS_AGENT_REQUESTS_PER_SECOND", "100000"),
          Map.entry("CANVAS_AGENT_RUNS_PER_MINUTE", "100000"),
          Map.entry("CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", "100000"),
          Map.entry("CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND", "1000000"),
          Map.entry("CANVAS_AGENT_CONNECTIONS_PER_ADDRESS", "100000"),
          Map.entry("CANVAS_AGENT_ROOMS_PER_CLIENT", "100000"),
          Map.entry("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "0"),
          Map.entry("CANVAS_AGENT_LEASE_TTL_MS", "600000"),
          Map.entry("CANVAS_AGENT_ACK_TIMEOUT_MS", "100"),
          Map.entry("CANVAS_AGENT_ACK_RETRIES", "0"));

  Vertx vertx;
  TestServer server;
  long seed;
  int cases;

  static long seed() {
    return Long.getLong(SEED_PROPERTY, DEFAULT_SEED);
  }

  static int casesPerTarget() {
    return Integer.getInteger(CASES_PROPERTY, DEFAULT_CASES);
  }

  @BeforeAll
  void start() {
    seed = seed();
    cases = casesPerTarget();
    System.out.println(
        "fuzz seed "
            + seed
            + ", "
            + cases
            + " cases per target (-D"
            + SEED_PROPERTY
            + "="
            + seed
            + " replays)");
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(ENVIRONMENT));
  }

  @AfterAll
  void stop() {
    if (server != null) {
      Await.result(server.stop());
    }
    Await.result(vertx.close());
  }

  @Test
  void everyJsonEndpointAndQueryAnswersBelow500AndARefusalChangesNothing() {
    FuzzFindings findings = httpPass(vertx, server, "fuzz-http", new Random(seed), cases, null);
    findings.assertNone();
  }

  /** The HTTP pass, shared with {@link PgFuzzTest}. */
  static FuzzFindings httpPass(
      Vertx vertx,
      TestServer server,
      String room,
      Random random,
      int cases,
      java.util.function.Supplier<Map<String, String>> extraState) {
    FuzzBodies bodies = new FuzzBodies(random);
    JsonArray tools = server.get("/api/docs/tools").bodyAsJsonObject().getJsonArray("tools");
    FuzzFixture fixture = FuzzFixture.create(vertx, room, tools);
    FuzzFindings findings = new FuzzFindings("HTTP", seed());
    List<HttpTargets.Target> targets = HttpTargets.targets(fixture, bodies);
    Map<HttpTargets.Target, Integer> counts = new HashMap<>();
    // The document tools share one endpoint: each gets half the cases of the others.
    targets.forEach(
        target ->
            counts.put(target, target.name().contains("/tools/") ? Math.max(1, cases / 2) : cases));
    new HttpFuzz(
            vertx,
            server.port(),
            fixture,
            new StateFingerprint(vertx, extraState),
            bodies,
            findings)
        .run(targets, counts);
    System.out.println(findings.summary());
    assertStillServing(vertx, server);
    return findings;
  }

  @Test
  void everyMcpMethodAndToolAnswersBelow500AndARefusalChangesNothing() {
    FuzzBodies bodies = new FuzzBodies(new Random(seed + 3));
    JsonArray tools = server.get("/api/docs/tools").bodyAsJsonObject().getJsonArray("tools");
    FuzzFixture fixture = FuzzFixture.create(vertx, "fuzz-mcp", tools);
    FuzzFindings findings = new FuzzFindings("MCP", seed);
    McpFuzz fuzz =
        new McpFuzz(
            vertx,
            server.http(),
            server.port(),
            fixture,
            new StateFingerprint(vertx, null),
            bodies,
            findings);
    JsonArray verbs = server.get("/api/catalog").bodyAsJsonObject().getJsonArray("verbs");
    fuzz.run(fuzz.targets(verbs), Math.max(1, cases / 4));
    System.out.println(findings.summary());
    assertStillServing(vertx, server);
    findings.assertNone();
  }

  @Test
  void everyInboundTopicOnTheWebSocketIsRefusedWithAnErrorFrameAndChangesNothing() {
    FuzzFindings findings = new FuzzFindings("WebSocket", seed);
    new WebSocketFuzz(
            vertx,
            server.port(),
            "fuzz-ws",
            MAX_MESSAGE_BYTES,
            new StateFingerprint(vertx, null),
            new FuzzBodies(new Random(seed + 1)),
            findings)
        .run(cases * 10);
    System.out.println(findings.summary());
    assertStillServing(vertx, server);
    findings.assertNone();
  }

  @Test
  void everySockJsFrameIsRefusedWithAnErrorFrameAndChangesNothing() {
    FuzzFindings findings = new FuzzFindings("SockJS", seed);
    new SockJsFuzz(
            vertx,
            server.port(),
            "fuzz-sockjs",
            MAX_MESSAGE_BYTES,
            new StateFingerprint(vertx, null),
            new FuzzBodies(new Random(seed + 2)),
            findings)
        .run(cases * 10);
    System.out.println(findings.summary());
    assertStillServing(vertx, server);
    findings.assertNone();
  }

  /** After a pass the server still answers: its health, and a new WebSocket client's hello. */
  static void assertStillServing(Vertx vertx, TestServer server) {
    assertEquals(200, server.get("/health").statusCode());
    WsClient client = Await.result(WsClient.connect(vertx, server.port(), "fuzz-after"));
    assertTrue(client.clientId().startsWith("ws-"));
    Await.result(client.close());
  }
}
