package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Requests;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Follow-ups and idempotent retries across a crash (issue 16, defects 4 and 5), with the packaged jar
 * ({@code java -jar target/canvas-agent.jar}, after {@code package}) on PostgreSQL, killed with
 * SIGKILL and started again on the same schema:
 *
 * <ul>
 *   <li>the follow-ups a request had queued when the process died are stored and end {@code error}
 *       INTERRUPTED with their request, so the request ends instead of waiting for ever;
 *   <li>a retry of a keyed run that died queued (before it started) runs it when it comes before the
 *       sweeper, and is answered {@code 409 RUN_INTERRUPTED} once the run has been swept: never a
 *       {@code 202} for a run that will not run.
 * </ul>
 *
 * Every wait is for an event (an {@code agent:status} on a real SSE client) or a stored state.
 */
@ExtendWith(VertxExtension.class)
class CrashDurabilityIT {
  static final List<String> JAR = List.of("-jar", "target/canvas-agent.jar");
  static final String ROOM = "crashed";

  /** Long enough that a sweep never comes before the retry: the retried run is still queued. */
  static final int SWEEP_AFTER_THE_RETRY_MS = 120_000;

  /** Short: the restarted process sweeps the dead process's runs at once. */
  static final int SWEEP_AT_ONCE_MS = 1_000;

  DatabaseConfig database;

  @BeforeEach
  void createSchema() {
    database = TestDatabase.freshSchema();
  }

  @AfterEach
  void dropSchema() {
    TestDatabase.drop(database);
  }

  Map<String, String> environment(int interruptedAfterMs) {
    Map<String, String> env = TestDatabase.processEnvironment(database);
    // Slow enough that a run is still streaming when the process dies.
    env.put("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "40");
    env.put("CANVAS_AGENT_RUN_HEARTBEAT_MS", "200");
    env.put("CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS", String.valueOf(interruptedAfterMs));
    return env;
  }

  static WebClient http(Vertx vertx, int port) {
    return WebClient.create(
        vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
  }

  static JsonObject answered(HttpResponse<Buffer> response, int status) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  static Future<HttpResponse<Buffer>> postRun(WebClient http, JsonObject body, String key) {
    var request = http.post("/api/canvas-agent/run");
    if (key != null) {
      request.putHeader("Idempotency-Key", key);
    }
    return request.sendJsonObject(body);
  }

  static String runIdOf(SseEvent event) {
    return event.data().getJsonObject("detail", new JsonObject()).getString("runId");
  }

  /** The status {@code state} of run {@code runId}; a queued run's {@code scheduled {position}} is not its end. */
  static Predicate<SseEvent> status(String runId, String state) {
    return event ->
        event.event().equals("agent:status")
            && runId.equals(runIdOf(event))
            && state.equals(event.data().getString("state"))
            && !event.data().getJsonObject("detail").containsKey("position");
  }

  /** The {@code scheduled {position}} status of a run that joined its session's queue. */
  static Predicate<SseEvent> queued(String runId) {
    return event ->
        event.event().equals("agent:status")
            && runId.equals(runIdOf(event))
            && "scheduled".equals(event.data().getString("state"))
            && event.data().getJsonObject("detail").containsKey("position");
  }

  /** The final status that ends the request {@code runId} started (its run's, or a follow-up's). */
  static Predicate<SseEvent> requestEnded(String runId) {
    return event ->
        event.event().equals("agent:status")
            && Requests.ofRequest(event.data().getJsonObject("detail"), runId)
            && List.of("done", "error", "canceled").contains(event.data().getString("state"));
  }

  @Test
  void theFollowUpsQueuedWhenTheProcessDiedAreStoredAndEndInterruptedWithTheirRequest(Vertx vertx)
      throws Exception {
    String sessionId;
    String requestRunId;
    List<String> followUps;
    try (ServerProcess first = ServerProcess.java(JAR, environment(SWEEP_AT_ONCE_MS))) {
      int port = first.awaitStartedPort();
      WebClient http = http(vertx, port);
      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      JsonObject accepted =
          answered(
              Await.result(
                  postRun(
                      http,
                      new JsonObject().put("roomId", ROOM).put("message", "/two-passes"),
                      null)),
              202);
      sessionId = accepted.getString("sessionId");
      requestRunId = accepted.getString("runId");
      List<SseEvent> events = Await.result(sse.awaitEvent(status(requestRunId, "scheduled")));
      JsonArray queued =
          events.stream()
              .filter(status(requestRunId, "scheduled"))
              .findFirst()
              .orElseThrow()
              .data()
              .getJsonObject("detail")
              .getJsonArray("followupsQueued");
      followUps = queued.stream().map(f -> ((JsonObject) f).getString("runId")).toList();
      // Its two passes, and the scheduler's low_actions rule (the request itself drew nothing).
      assertTrue(followUps.size() >= 2, queued.encode());
      // The first follow-up is drawing its boxes: the others wait in the dead process's queue.
      Await.result(sse.awaitEvent(status(followUps.get(0), "streaming")));
      first.close(); // SIGKILL
      first.awaitExit();
      http.close();
    }

    try (ServerProcess second = ServerProcess.java(JAR, environment(SWEEP_AT_ONCE_MS))) {
      int port = second.awaitStartedPort();
      WebClient http = http(vertx, port);
      Map<String, JsonObject> runs = SettledRuns.of(vertx, http, sessionId);

      JsonObject asking = runs.get(requestRunId);
      assertEquals("scheduled", asking.getString("state"), "its one final status, kept");
      for (String followUp : followUps) {
        assertNotNull(
            runs.get(followUp),
            "every follow-up the request named is stored: " + followUp + " in " + runs.values());
      }
      for (String followUp : followUps) {
        JsonObject run = runs.get(followUp);
        assertEquals("error", run.getString("state"), run.encode());
        assertEquals("INTERRUPTED", run.getJsonObject("detail").getString("code"), run.encode());
        assertEquals(true, run.getJsonObject("detail").getBoolean("retryable"), run.encode());
        assertEquals(
            requestRunId,
            run.getJsonObject("detail").getJsonObject("followUp").getString("requestRunId"),
            "it says which request it belonged to: " + run.encode());
        assertEquals(
            requestRunId,
            run.getJsonObject("detail").getJsonObject("followUp").getString("askedByRunId"));
      }
      assertEquals(
          java.util.stream.IntStream.rangeClosed(1, followUps.size()).boxed().toList(),
          followUps.stream()
              .map(
                  id ->
                      runs.get(id)
                          .getJsonObject("detail")
                          .getJsonObject("followUp")
                          .getInteger("number"))
              .toList());
      second.terminate();
      second.awaitExit();
      http.close();
    }
  }

  /**
   * In a session whose run {@code A} is drawing: {@code X} preempts it and the keyed {@code B} queues
   * behind {@code X}. While A's cancel cannot be recorded (the test holds A's row), A is still the
   * session's running run, so B does not preempt X: it waits. Ends once X is streaming, B queued.
   */
  record QueuedBehind(String sessionId, String keyedRunId, JsonObject keyedBody) {}

  QueuedBehind aKeyedRunQueuedBehindADrawingRun(Vertx vertx, WebClient http, SseClient sse)
      throws Exception {
    JsonObject drawing =
        answered(
            Await.result(
                postRun(
                    http,
                    new JsonObject().put("roomId", ROOM).put("message", "draw 12 boxes"),
                    null)),
            202);
    String sessionId = drawing.getString("sessionId");
    Await.result(sse.awaitEvent(status(drawing.getString("runId"), "streaming")));
    String preempting;
    JsonObject keyedBody =
        new JsonObject()
            .put("roomId", ROOM)
            .put("sessionId", sessionId)
            .put("message", "draw a blue square");
    String keyed;
    try (Connection holder =
        DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password())) {
      holder.setAutoCommit(false);
      try (var lock = holder.createStatement()) {
        lock.execute(
            "SELECT id FROM "
                + database.schema()
                + ".canvas_agent_runs WHERE id = '"
                + drawing.getString("runId")
                + "' FOR UPDATE");
      }
      preempting =
          answered(
                  Await.result(
                      postRun(
                          http,
                          new JsonObject()
                              .put("roomId", ROOM)
                              .put("sessionId", sessionId)
                              .put("message", "draw 12 circles"),
                          null)),
                  202)
              .getString("runId");
      keyed = answered(Await.result(postRun(http, keyedBody, "retry-me")), 202).getString("runId");
      Await.result(sse.awaitEvent(queued(keyed)));
      holder.rollback();
    }
    Await.result(sse.awaitEvent(status(preempting, "streaming")));
    assertTrue(
        sse.received().stream()
            .noneMatch(
                event ->
                    keyed.equals(runIdOf(event))
                        && "waiting_context".equals(event.data().getString("state"))),
        "the keyed run has not started");
    return new QueuedBehind(sessionId, keyed, keyedBody);
  }

  /** A first process, killed (SIGKILL) while a keyed run waits queued behind a drawing run. */
  private QueuedBehind killedWhileAKeyedRunWaits(Vertx vertx, int interruptedAfterMs)
      throws Exception {
    try (ServerProcess first = ServerProcess.java(JAR, environment(interruptedAfterMs))) {
      int port = first.awaitStartedPort();
      WebClient http = http(vertx, port);
      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      QueuedBehind queued = aKeyedRunQueuedBehindADrawingRun(vertx, http, sse);
      first.close();
      first.awaitExit();
      http.close();
      return queued;
    }
  }

  @Test
  void aRetryOfAKeyedRunThatDiedQueuedRunsIt(Vertx vertx) throws Exception {
    QueuedBehind queued = killedWhileAKeyedRunWaits(vertx, SWEEP_AFTER_THE_RETRY_MS);

    try (ServerProcess second = ServerProcess.java(JAR, environment(SWEEP_AFTER_THE_RETRY_MS))) {
      int port = second.awaitStartedPort();
      WebClient http = http(vertx, port);
      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      // The person has moved on: a new message runs in the session when the retry comes.
      String newer =
          answered(
                  Await.result(
                      postRun(
                          http,
                          new JsonObject()
                              .put("roomId", ROOM)
                              .put("sessionId", queued.sessionId())
                              .put("message", "draw 12 boxes"),
                          null)),
                  202)
              .getString("runId");
      Await.result(sse.awaitEvent(status(newer, "streaming")));
      JsonObject retried =
          answered(Await.result(postRun(http, queued.keyedBody(), "retry-me")), 202);
      assertEquals(queued.keyedRunId(), retried.getString("runId"), "the same run");
      assertEquals(queued.sessionId(), retried.getString("sessionId"));

      // The older message waits its turn: the newer one is not preempted by it.
      List<SseEvent> newerEnded = Await.result(sse.awaitEvent(requestEnded(newer)));
      assertEquals(
          "done",
          newerEnded.get(newerEnded.size() - 1).data().getString("state"),
          newerEnded.toString());
      // Then it runs, to its request's end (the scheduler's rules may add a follow-up).
      List<SseEvent> events = Await.result(sse.awaitEvent(requestEnded(queued.keyedRunId())));
      assertEquals(
          "done", events.get(events.size() - 1).data().getString("state"), events.toString());
      assertTrue(
          events.stream()
              .anyMatch(
                  event ->
                      event.event().equals("agent:action")
                          && event
                              .data()
                              .getJsonArray("actions")
                              .getJsonObject(0)
                              .getString("id")
                              .startsWith(queued.keyedRunId() + ":")),
          "it drew");
      JsonObject record =
          answered(Await.result(http.get("/api/sessions/" + queued.sessionId()).send()), 200)
              .getJsonArray("runs")
              .stream()
              .map(JsonObject.class::cast)
              .filter(run -> run.getString("runId").equals(queued.keyedRunId()))
              .findFirst()
              .orElseThrow();
      assertTrue(List.of("done", "scheduled").contains(record.getString("state")), record.encode());

      // Retried again: the first result, nothing run twice.
      assertEquals(
          queued.keyedRunId(),
          answered(Await.result(postRun(http, queued.keyedBody(), "retry-me")), 202)
              .getString("runId"));
      assertEquals(
          1,
          TestDatabase.queryLong(
              database,
              "SELECT count(*) FROM "
                  + database.schema()
                  + ".canvas_agent_runs WHERE id = '"
                  + queued.keyedRunId()
                  + "'"));
      Await.result(sse.close());
      second.terminate();
      second.awaitExit();
      http.close();
    }
  }

  /**
   * No crash: the node holding the queued run is alive and slow, and the retry reaches another node on
   * the same database. The other node takes the run in and runs it; when the first reaches it, the
   * run is no longer queued in the store and it does not run it again.
   */
  @Test
  void aRetryOnAnotherNodeWhileTheFirstStillHoldsTheRunRunsItOnce(Vertx vertx) throws Exception {
    try (ServerProcess first = ServerProcess.java(JAR, environment(SWEEP_AFTER_THE_RETRY_MS));
        ServerProcess second = ServerProcess.java(JAR, environment(SWEEP_AFTER_THE_RETRY_MS))) {
      int firstPort = first.awaitStartedPort();
      int secondPort = second.awaitStartedPort();
      WebClient firstHttp = http(vertx, firstPort);
      WebClient secondHttp = http(vertx, secondPort);
      SseClient firstSse =
          Await.result(SseClient.connect(vertx, firstPort, "/api/rooms/" + ROOM + "/events"));
      SseClient secondSse =
          Await.result(SseClient.connect(vertx, secondPort, "/api/rooms/" + ROOM + "/events"));
      QueuedBehind queued = aKeyedRunQueuedBehindADrawingRun(vertx, firstHttp, firstSse);

      JsonObject retried =
          answered(Await.result(postRun(secondHttp, queued.keyedBody(), "retry-me")), 202);
      assertEquals(queued.keyedRunId(), retried.getString("runId"));
      List<SseEvent> ran = Await.result(secondSse.awaitEvent(requestEnded(queued.keyedRunId())));
      assertEquals("done", ran.get(ran.size() - 1).data().getString("state"), ran.toString());

      // The first node finishes the run before it, then comes to the keyed one and leaves it.
      first.awaitLine(
          java.util.regex.Pattern.compile(
              "run\\.not_started.*" + java.util.regex.Pattern.quote(queued.keyedRunId())));
      assertTrue(
          firstSse.received().stream()
              .noneMatch(
                  event ->
                      queued.keyedRunId().equals(runIdOf(event))
                          && "waiting_context".equals(event.data().getString("state"))),
          "the first node never started it");
      assertEquals(
          1,
          secondSse.received().stream()
              .filter(
                  event ->
                      queued.keyedRunId().equals(runIdOf(event))
                          && "waiting_context".equals(event.data().getString("state")))
              .count());
      Await.result(Future.all(firstSse.close(), secondSse.close()));
      first.terminate();
      second.terminate();
      first.awaitExit();
      second.awaitExit();
      firstHttp.close();
      secondHttp.close();
    }
  }

  @Test
  void aRetryOfAKeyedRunSweptAsInterruptedIsAnswered409RunInterrupted(Vertx vertx)
      throws Exception {
    QueuedBehind queued = killedWhileAKeyedRunWaits(vertx, SWEEP_AT_ONCE_MS);

    try (ServerProcess second = ServerProcess.java(JAR, environment(SWEEP_AT_ONCE_MS))) {
      int port = second.awaitStartedPort();
      WebClient http = http(vertx, port);
      Map<String, JsonObject> before = SettledRuns.of(vertx, http, queued.sessionId());
      JsonObject swept = before.get(queued.keyedRunId());
      assertEquals("error", swept.getString("state"), swept.encode());
      assertEquals("INTERRUPTED", swept.getJsonObject("detail").getString("code"));

      HttpResponse<Buffer> retried = Await.result(postRun(http, queued.keyedBody(), "retry-me"));
      JsonObject error = answered(retried, 409).getJsonObject("error");
      assertEquals("RUN_INTERRUPTED", error.getString("code"), retried.bodyAsString());
      assertTrue(
          error.getString("message").contains(queued.keyedRunId()),
          "it names the run: " + error.getString("message"));

      assertEquals(
          before,
          SettledRuns.of(vertx, http, queued.sessionId()),
          "the refused retry changed nothing");
      second.terminate();
      second.awaitExit();
      http.close();
    }
  }
}
