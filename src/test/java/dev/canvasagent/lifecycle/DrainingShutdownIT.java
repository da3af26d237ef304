package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readiness and the draining shutdown with the fat jar as an operating-system process ({@code
 * java -jar target/canvas-agent.jar}, so it runs with {@code verify}) on PostgreSQL: not ready while it starts, ready once it has, and
 * on SIGTERM not ready at once, no new runs, the running run ended with a final status its SSE
 * client sees, then the stream ended and exit status 0.
 */
@ExtendWith(VertxExtension.class)
class DrainingShutdownIT {
  static final List<String> JAR = List.of("-jar", "target/canvas-agent.jar");
  static final String ROOM = "drain";
  static final long POLL_MS = 20;
  static final int POLLS = 3_000;

  DatabaseConfig database;

  @BeforeEach
  void createSchema() {
    database = TestDatabase.freshSchema();
  }

  @AfterEach
  void dropSchema() {
    TestDatabase.drop(database);
  }

  static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * GETs {@code path} on a Vert.x timer until an answer satisfies {@code until} (a refused
   * connection is no answer); completes with every status seen on the way, the last one included.
   */
  static Future<List<HttpResponse<Buffer>>> pollUntil(
      Vertx vertx, WebClient http, String path, Predicate<HttpResponse<Buffer>> until) {
    Promise<List<HttpResponse<Buffer>>> done = Promise.promise();
    poll(vertx, http, path, until, new ArrayList<>(), POLLS, done);
    return done.future();
  }

  private static void poll(
      Vertx vertx,
      WebClient http,
      String path,
      Predicate<HttpResponse<Buffer>> until,
      List<HttpResponse<Buffer>> seen,
      int remaining,
      Promise<List<HttpResponse<Buffer>>> done) {
    http.get(path)
        .send()
        .onComplete(
            answer -> {
              if (answer.succeeded()) {
                seen.add(answer.result());
                if (until.test(answer.result())) {
                  done.complete(seen);
                  return;
                }
              }
              if (remaining <= 1) {
                done.fail(path + " never answered as awaited; seen " + statuses(seen));
                return;
              }
              vertx.setTimer(
                  POLL_MS, id -> poll(vertx, http, path, until, seen, remaining - 1, done));
            });
  }

  static List<String> statuses(List<HttpResponse<Buffer>> seen) {
    return seen.stream().map(answer -> answer.statusCode() + " " + answer.bodyAsString()).toList();
  }

  static boolean status(SseEvent event, String runId, String state) {
    return event.event().equals("agent:status")
        && event.data().getString("state").equals(state)
        && runId.equals(event.data().getJsonObject("detail", new JsonObject()).getString("runId"));
  }

  static String startRun(WebClient http) {
    HttpResponse<Buffer> accepted =
        Await.result(
            http.post("/api/canvas-agent/run")
                .sendJsonObject(
                    new JsonObject().put("roomId", ROOM).put("message", "draw 3 red circles")));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    return accepted.bodyAsJsonObject().getString("runId");
  }

  /** The schema migrated, as the server would, so that the test can lock one of its tables. */
  void migrate() {
    Flyway.configure()
        .dataSource(database.jdbcUrl(), database.user(), database.password())
        .schemas(database.schema())
        .createSchemas(true)
        .locations("classpath:db/migration")
        .load()
        .migrate();
  }

  @Test
  void notReadyWhileStartingThenReadyAndOnSigtermDrainsTheRunningRun(Vertx vertx) throws Exception {
    migrate();
    int port = freePort();
    Map<String, String> env = TestDatabase.processEnvironment(database);
    env.put("PORT", String.valueOf(port));
    env.put("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "30");
    WebClient http =
        WebClient.create(
            vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    try (Connection holder =
            DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
        ServerProcess server = ServerProcess.java(JAR, env)) {
      // The scheduler sweeps the runs table as it deploys: while this lock is held, it cannot.
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute(
            "LOCK TABLE " + database.schema() + ".canvas_agent_runs IN ACCESS EXCLUSIVE MODE");
      }
      List<HttpResponse<Buffer>> starting =
          Await.result(pollUntil(vertx, http, "/health/ready", answer -> true), 120);
      HttpResponse<Buffer> first = starting.get(starting.size() - 1);
      assertEquals(503, first.statusCode(), first.bodyAsString());
      assertEquals(
          new JsonObject().put("ok", false).put("status", "not_ready").put("reason", "starting"),
          first.bodyAsJsonObject());
      assertEquals(200, Await.result(http.get("/health/live").send()).statusCode());
      HttpResponse<Buffer> tooSoon =
          Await.result(
              http.post("/api/canvas-agent/run")
                  .sendJsonObject(new JsonObject().put("roomId", ROOM).put("message", "a box")));
      assertEquals(503, tooSoon.statusCode(), tooSoon.bodyAsString());
      assertEquals("STARTING", tooSoon.bodyAsJsonObject().getJsonObject("error").getString("code"));
      assertEquals("1", tooSoon.getHeader("Retry-After"));
      // A scrape while starting shows the node's own meters: a slow start is worth watching.
      HttpResponse<Buffer> scrape = Await.result(http.get("/metrics").send());
      assertEquals(200, scrape.statusCode(), scrape.bodyAsString());
      assertTrue(
          scrape.bodyAsString().contains("canvas_agent_envelopes_published_total"),
          "the domain's meters, at zero");
      assertEquals(
          503,
          Await.result(http.get("/health/ready").send()).statusCode(),
          "still starting while the lock is held");

      holder.rollback();
      List<HttpResponse<Buffer>> started =
          Await.result(
              pollUntil(vertx, http, "/health/ready", answer -> answer.statusCode() == 200), 60);
      assertTrue(
          started.stream()
              .limit(started.size() - 1)
              .allMatch(
                  answer ->
                      answer.statusCode() == 503
                          && "starting".equals(answer.bodyAsJsonObject().getString("reason"))),
          "503 starting, then 200: " + statuses(started));
      assertEquals(port, server.awaitStartedPort());
      server.keepReading();

      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      String runId = startRun(http);
      Await.result(sse.awaitEvent(event -> status(event, runId, "streaming")));

      server.terminate();

      List<HttpResponse<Buffer>> draining =
          Await.result(
              pollUntil(vertx, http, "/health/ready", answer -> answer.statusCode() == 503), 30);
      assertEquals(
          new JsonObject().put("ok", false).put("status", "not_ready").put("reason", "draining"),
          draining.get(draining.size() - 1).bodyAsJsonObject());
      HttpResponse<Buffer> live = Await.result(http.get("/health/live").send());
      assertEquals(200, live.statusCode(), "draining, the process is live: " + live.bodyAsString());
      HttpResponse<Buffer> refused =
          Await.result(
              http.post("/api/canvas-agent/run")
                  .sendJsonObject(new JsonObject().put("roomId", ROOM).put("message", "a box")));
      assertEquals(503, refused.statusCode(), refused.bodyAsString());
      assertEquals(
          "SHUTTING_DOWN", refused.bodyAsJsonObject().getJsonObject("error").getString("code"));
      assertEquals("5", refused.getHeader("Retry-After"));

      Await.result(sse.awaitEvent(event -> status(event, runId, "done")), 60);
      Await.result(sse.ended(), 60);
      assertEquals(0, server.awaitExit(), server.output());
      assertTrue(server.output().contains("server.drained finished=1 canceled=0"), server.output());
      assertEquals(
          List.of("done"),
          TestDatabase.queryStrings(
              database,
              "SELECT state FROM "
                  + database.schema()
                  + ".canvas_agent_runs WHERE id = '"
                  + runId
                  + "'"));
    } finally {
      http.close();
    }
  }

  @Test
  void aRunLongerThanTheGraceEndsCanceledOnItsStreamAndTheProcessExits(Vertx vertx)
      throws Exception {
    Map<String, String> env = TestDatabase.processEnvironment(database);
    // Each fragment of the model's answer takes a second: the run would go on for minutes.
    env.put("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "1000");
    env.put("CANVAS_AGENT_SHUTDOWN_GRACE_MS", "1000");
    try (ServerProcess server = ServerProcess.java(JAR, env)) {
      int port = server.awaitStartedPort();
      server.keepReading();
      WebClient http =
          WebClient.create(
              vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
      SseClient sse =
          Await.result(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"));
      String runId = startRun(http);
      Await.result(sse.awaitEvent(event -> status(event, runId, "streaming")), 60);

      server.terminate();

      List<SseEvent> seen =
          Await.result(sse.awaitEvent(event -> status(event, runId, "canceled")), 60);
      JsonObject detail = seen.get(seen.size() - 1).data().getJsonObject("detail");
      assertEquals("CANCELED", detail.getString("code"), detail.encode());
      assertTrue(detail.getString("reason").contains("1000 ms shutdown grace"), detail.encode());
      Await.result(sse.ended(), 60);
      // ServerProcess waits at most 60 s: far less than the run would have taken.
      assertEquals(0, server.awaitExit(), server.output());
      assertEquals(
          List.of("canceled"),
          TestDatabase.queryStrings(
              database,
              "SELECT state FROM "
                  + database.schema()
                  + ".canvas_agent_runs WHERE id = '"
                  + runId
                  + "'"));
      http.close();
    }
  }
}
