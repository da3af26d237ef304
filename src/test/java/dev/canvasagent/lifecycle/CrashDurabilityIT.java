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
 *   <li>the follow-ups a request had queued when the process died are stored from when they were
 *       granted: the one running ends {@code error} INTERRUPTED, the ones waiting run on the node
 *       that owns the session next — here the restarted process (issue 19) — each naming its request;
 *   <li>a keyed run that died queued (before it started) runs once: on a retry that comes before its
 *       heartbeat went stale, or else on its session's next owner, and a retry is then answered with
 *       it ({@code 202}), never run again.
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
  void theFollowUpQueuedRunningWhenTheProcessDiedEndsInterruptedAndTheWaitingOnesRunAfterIt(
      Vertx vertx) throws Exception {
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
      JsonObject cutOff = runs.get(followUps.get(0));
      assertEquals("error", cutOff.getString("state"), cutOff.encode());
      assertEquals(
          "INTERRUPTED", cutOff.getJsonObject("detail").getString("code"), cutOff.encode());
      assertEquals(true, cutOff.getJsonObject("detail").getBoolean("retryable"), cutOff.encode());
      for (String waited : followUps.subList(1, followUps.size())) {
        JsonObject run = runs.get(waited);
        assertTrue(
            List.of("done", "scheduled").contains(run.getString("state")),
            "it waited in the dead process's queue and ran after the restart: " + run.encode());
      }
      for (String followUp : followUps) {
        JsonObject run = runs.get(followUp);
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

  /**
   * Long enough that the retry comes before the restarted process has swept the run that was drawing
   * (and taken the keyed one over); short enough to wait for that sweep.
   */
  static final int SWEEP_AFTER_A_WHILE_MS = 8_000;

  @Test
  void aRetryOfAKeyedRunThatDiedQueuedRunsItOnceTheRunThatWasDrawingIsSwept(Vertx vertx)
      throws Exception {
    QueuedBehind queued = killedWhileAKeyedRunWaits(vertx, SWEEP_AFTER_A_WHILE_MS);

    try (ServerProcess second = ServerProcess.java(JAR, environment(SWEEP_AFTER_A_WHILE_MS))) {
      int port = second.awaitStartedPort();
      WebClient http = http(vertx, port);
      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      JsonObject retried =
          answered(Await.result(postRun(http, queued.keyedBody(), "retry-me")), 202);
      assertEquals(queued.keyedRunId(), retried.getString("runId"), "the same run");
      assertEquals(queued.sessionId(), retried.getString("sessionId"));

      // It starts once the run that was drawing is swept (one run of a session at a time), and runs
      // to its request's end (the scheduler's rules may add a follow-up).
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
   * the same database (two servers that are not clustered). The other node takes the run in too; the
   * run starts once the session's running run on the first node has ended (one run of a session at a
   * time, whichever node holds it), on whichever node claims it first, and never on the other.
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
      JsonObject ran =
          SettledRuns.of(vertx, secondHttp, queued.sessionId()).get(queued.keyedRunId());
      assertTrue(List.of("done", "scheduled").contains(ran.getString("state")), ran.encode());

      Predicate<SseEvent> keyedStarted =
          event ->
              queued.keyedRunId().equals(runIdOf(event))
                  && "waiting_context".equals(event.data().getString("state"));
      assertEquals(
          1,
          firstSse.received().stream().filter(keyedStarted).count()
              + secondSse.received().stream().filter(keyedStarted).count(),
          "it started once, on one of the two nodes");
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
  void aKeyedRunThatDiedQueuedRunsOnceAfterTheRestartAndItsRetryIsAnsweredWithIt(Vertx vertx)
      throws Exception {
    QueuedBehind queued = killedWhileAKeyedRunWaits(vertx, SWEEP_AT_ONCE_MS);

    try (ServerProcess second = ServerProcess.java(JAR, environment(SWEEP_AT_ONCE_MS))) {
      int port = second.awaitStartedPort();
      WebClient http = http(vertx, port);
      Map<String, JsonObject> before = SettledRuns.of(vertx, http, queued.sessionId());
      JsonObject ran = before.get(queued.keyedRunId());
      assertTrue(
          List.of("done", "scheduled").contains(ran.getString("state")),
          "its session's next owner (the restarted process) took it over and ran it: "
              + ran.encode());
      assertTrue(
          before.values().stream()
              .anyMatch(
                  run ->
                      "error".equals(run.getString("state"))
                          && "INTERRUPTED".equals(run.getJsonObject("detail").getString("code"))),
          "the run that was drawing when the process died ended INTERRUPTED: " + before.values());

      JsonObject retried =
          answered(Await.result(postRun(http, queued.keyedBody(), "retry-me")), 202);
      assertEquals(queued.keyedRunId(), retried.getString("runId"), "the same run");
      assertEquals(
          before, SettledRuns.of(vertx, http, queued.sessionId()), "the retry ran nothing again");
      second.terminate();
      second.awaitExit();
      http.close();
    }
  }
}
