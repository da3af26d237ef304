package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.App;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server killed with SIGKILL in the middle of a run, then started again on the same PostgreSQL:
 * the session, its todos, chat and transcript and the board's revisions are all there, and the run
 * that was running — and the one queued behind it — show {@code error} INTERRUPTED instead of staying
 * {@code running} forever. Both servers are real processes ({@code App.main} on the test classpath).
 */
@ExtendWith(VertxExtension.class)
class KillMidRunTest {
  static final List<String> MAIN =
      List.of("-cp", System.getProperty("java.class.path"), App.class.getName());
  static final String ROOM = "killed";

  DatabaseConfig database;

  @BeforeEach
  void createSchema() {
    database = TestDatabase.freshSchema();
  }

  @AfterEach
  void dropSchema() {
    TestDatabase.drop(database);
  }

  Map<String, String> environment() {
    Map<String, String> env = TestDatabase.processEnvironment(database);
    // Slow enough that a run is still streaming when the process dies; heartbeats that go stale
    // fast.
    env.put("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "40");
    env.put("CANVAS_AGENT_RUN_HEARTBEAT_MS", "200");
    env.put("CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS", "1000");
    return env;
  }

  static WebClient http(Vertx vertx, int port) {
    return WebClient.create(
        vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
  }

  static JsonObject accepted(HttpResponse<Buffer> response, int status) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  @Test
  void aRunInterruptedByKillShowsErrorAndEverythingCommittedIsThere(Vertx vertx) throws Exception {
    String sessionId;
    String killedRunId;
    long revisionSeen;
    try (ServerProcess first = ServerProcess.java(MAIN, environment())) {
      int port = first.awaitStartedPort();
      WebClient http = http(vertx, port);
      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      accepted(
          Await.result(
              http.post("/api/rooms/" + ROOM + "/transcript")
                  .putHeader("Idempotency-Key", "said-1")
                  .sendJsonObject(
                      new JsonObject().put("speaker", "ana").put("text", "todos first"))),
          201);
      JsonObject planned =
          accepted(
              Await.result(
                  http.post("/api/canvas-agent/run")
                      .sendJsonObject(
                          new JsonObject().put("roomId", ROOM).put("message", "/todos"))),
              202);
      sessionId = planned.getString("sessionId");
      Await.result(
          sse.awaitEvent(
              event ->
                  event.event().equals("agent:status")
                      && event.data().getString("state").equals("done")));

      JsonObject drawing =
          accepted(
              Await.result(
                  http.post("/api/canvas-agent/run")
                      .sendJsonObject(
                          new JsonObject()
                              .put("roomId", ROOM)
                              .put("sessionId", sessionId)
                              .put("message", "draw 3 red circles"))),
              202);
      killedRunId = drawing.getString("runId");
      var seen =
          Await.result(
              sse.awaitEvent(
                  event ->
                      event.event().equals("agent:action")
                          && event.data().containsKey("rev")
                          && event
                              .data()
                              .getJsonArray("actions")
                              .getJsonObject(0)
                              .getString("id")
                              .startsWith(killedRunId)));
      revisionSeen = seen.get(seen.size() - 1).data().getLong("rev");
      first.close(); // SIGKILL: no shutdown hook, nothing flushed
      first.awaitExit();
      http.close();
    }

    try (ServerProcess second = ServerProcess.java(MAIN, environment())) {
      int port = second.awaitStartedPort();
      WebClient http = http(vertx, port);
      JsonObject resumed = SettledRuns.resume(vertx, http, sessionId);
      Map<String, JsonObject> runs = SettledRuns.byId(resumed);
      // The todos request, the follow-ups the scheduler's rules gave it, and the run the kill
      // interrupted.
      assertTrue(runs.size() >= 2, resumed.encode());
      JsonObject killed = runs.get(killedRunId);
      assertEquals("error", killed.getString("state"), killed.encode());
      assertEquals(
          "INTERRUPTED", killed.getJsonObject("detail").getString("code"), killed.encode());
      assertEquals(true, killed.getJsonObject("detail").getBoolean("retryable"));
      assertTrue(
          runs.values().stream()
              .filter(run -> !run.getString("runId").equals(killedRunId))
              .allMatch(run -> List.of("scheduled", "done").contains(run.getString("state"))),
          resumed.encode());

      assertFalse(resumed.getJsonArray("todos").isEmpty(), "the todos are there");
      assertEquals(1, resumed.getJsonArray("transcript").size());
      assertTrue(
          resumed.getJsonArray("chat").stream()
              .map(JsonObject.class::cast)
              .anyMatch(message -> message.getString("text").equals("/todos")),
          resumed.encode());
      long revision = resumed.getLong("boardRevision");
      assertTrue(
          revision >= revisionSeen,
          "every revision a client saw was committed: " + revision + " < " + revisionSeen);
      JsonObject board =
          Await.result(http.get("/api/rooms/" + ROOM + "/board").send()).bodyAsJsonObject();
      assertEquals(revision, board.getLong("revision"));
      assertEquals(
          revision,
          Await.result(http.get("/api/rooms/" + ROOM + "/revisions?limit=500").send())
              .bodyAsJsonObject()
              .getJsonArray("revisions")
              .size(),
          "one stored revision per commit");

      // The session goes on: a new run in it ends done.
      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      String next =
          accepted(
                  Await.result(
                      http.post("/api/canvas-agent/run")
                          .sendJsonObject(
                              new JsonObject()
                                  .put("roomId", ROOM)
                                  .put("sessionId", sessionId)
                                  .put("message", "draw a blue square"))),
                  202)
              .getString("runId");
      var ended =
          Await.result(
              sse.awaitEvent(
                  event ->
                      event.event().equals("agent:status")
                          && dev.canvasagent.support.Requests.ofRequest(
                              event.data().getJsonObject("detail"), next)
                          && List.of("done", "error", "canceled")
                              .contains(event.data().getString("state"))));
      assertEquals("done", ended.get(ended.size() - 1).data().getString("state"));
      Await.result(Future.all(sse.close(), Future.succeededFuture()));
      http.close();
      second.terminate();
      second.awaitExit();
    }
  }
}
