package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.OwnPostgres;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fault campaign, defect 1: PostgreSQL restarts ({@code pg_ctl stop -m immediate}, then
 * start) under a server deployed in process on that cluster while two runs stream {@code /tour} in
 * two sessions. Each run ends once, with its real cause ({@code error STORE_UNAVAILABLE}): its final
 * write, which fails while the database is down, is retried until the database answers, so its run
 * record ends with the state, cause, {@code applied} and {@code boardRevision} its clients were told,
 * and the sweeper — which does sweep a stale run of a dead node meanwhile — never turns it into a
 * second final status, {@code INTERRUPTED}. As soon as the database is back, the resume payload, the
 * cancel and the delete agree with what the clients were told: the run has ended.
 */
@ExtendWith(VertxExtension.class)
class DatabaseRestartMidRunTest {
  static final String ROOM = "pg-restart";
  static final List<String> FINAL = List.of("done", "error", "canceled");

  @Test
  void aRunCutByADatabaseRestartEndsOnceWithItsRealCause(Vertx vertx) {
    try (OwnPostgres cluster = OwnPostgres.start()) {
      DatabaseConfig database = cluster.config("restart");
      // Heartbeats and the sweep every 200 ms, a run stale after 1 s: a record the restart left
      // `running` would be swept within a second of the database's return.
      TestServer server =
          TestServer.start(
              vertx,
              TestServer.config(
                      Map.of(
                          "CANVAS_AGENT_RUN_HEARTBEAT_MS", "200",
                          "CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS", "1000",
                          "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "40"))
                  .withDatabase(Optional.of(database)));
      try {
        SseClient sse = server.events(ROOM);
        String canarySession = createSession(server);
        JsonObject kept = startTour(server);
        JsonObject deleted = startTour(server);
        Await.result(sse.awaitEvent(envelopeOf(kept.getString("runId"))));
        Await.result(sse.awaitEvent(envelopeOf(deleted.getString("runId"))));

        cluster.stopServer();
        JsonObject told =
            Await.result(sse.awaitEvent(finalOf(kept.getString("runId")))).stream()
                .filter(finalOf(kept.getString("runId")))
                .findFirst()
                .orElseThrow()
                .data();
        Await.result(sse.awaitEvent(finalOf(deleted.getString("runId"))));
        assertEquals("error", told.getString("state"), told.encode());
        JsonObject cause = told.getJsonObject("detail");
        assertEquals("STORE_UNAVAILABLE", cause.getString("code"), cause.encode());
        cluster.startServer();

        // The database is back: what the server answers agrees with what its clients were told.
        JsonObject resumed =
            Await.result(
                    answered(
                        vertx,
                        () ->
                            server
                                .http()
                                .get("/api/sessions/" + kept.getString("sessionId"))
                                .send()))
                .bodyAsJsonObject();
        JsonObject run =
            resumed.getJsonArray("runs").stream()
                .map(JsonObject.class::cast)
                .filter(each -> each.getString("runId").equals(kept.getString("runId")))
                .findFirst()
                .orElseThrow();
        assertEquals("error", run.getString("state"), run.encode());
        assertEquals(
            "STORE_UNAVAILABLE", run.getJsonObject("detail").getString("code"), run.encode());
        var canceled =
            Await.result(
                server
                    .http()
                    .post("/api/canvas-agent/cancel")
                    .sendJsonObject(
                        new JsonObject().put("sessionId", kept.getString("sessionId"))));
        assertEquals(200, canceled.statusCode(), canceled.bodyAsString());
        assertEquals(
            null, canceled.bodyAsJsonObject().getValue("canceled"), canceled.bodyAsString());
        var delete =
            Await.result(
                server.http().delete("/api/sessions/" + deleted.getString("sessionId")).send());
        assertEquals(200, delete.statusCode(), "the run has ended: " + delete.bodyAsString());

        // A stale run of a dead node, swept as INTERRUPTED: proof that the sweeper has swept since
        // the
        // database came back, and the runs it left alone.
        TestDatabase.execute(
            database,
            "INSERT INTO restart.canvas_agent_runs (id, session_id, room_id, message_chars, state, heartbeat_at)"
                + " VALUES ('canary', '"
                + canarySession
                + "', '"
                + ROOM
                + "', 1, 'running', now() - interval '1 hour')");
        Await.result(sse.awaitEvent(finalOf("canary")));
        Await.result(
            Eventually.holds(
                vertx,
                () ->
                    vertx.executeBlocking(
                        () ->
                            TestDatabase.queryStrings(
                                    database,
                                    "SELECT state FROM restart.canvas_agent_runs WHERE id = '"
                                        + kept.getString("runId")
                                        + "'")
                                .equals(List.of("error")))));
        JsonObject stored =
            new JsonObject(
                TestDatabase.queryStrings(
                        database,
                        "SELECT detail::text FROM restart.canvas_agent_runs WHERE id = '"
                            + kept.getString("runId")
                            + "'")
                    .get(0));
        for (String key : List.of("code", "reason", "applied", "boardRevision", "retryable")) {
          assertEquals(cause.getValue(key), stored.getValue(key), key + ": " + stored.encode());
        }
        assertEquals(1L, finalStatuses(sse, kept.getString("runId")), "one final status");
        assertEquals(1L, finalStatuses(sse, deleted.getString("runId")), "one final status");
        assertNotEquals(0L, finalStatuses(sse, "canary"));
        Await.result(sse.close());
      } finally {
        Await.result(server.stop());
      }
    }
  }

  private static String createSession(TestServer server) {
    var created =
        Await.result(
            server
                .http()
                .post("/api/sessions")
                .sendJsonObject(new JsonObject().put("roomId", ROOM)));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject().getJsonObject("session").getString("id");
  }

  private static JsonObject startTour(TestServer server) {
    var accepted = server.postRun(new JsonObject().put("roomId", ROOM).put("message", "/tour"));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    return accepted.bodyAsJsonObject();
  }

  /** The first request after the database's return may meet a connection the restart closed. */
  private static Future<HttpResponse<Buffer>> answered(
      Vertx vertx, java.util.function.Supplier<Future<HttpResponse<Buffer>>> request) {
    HttpResponse<Buffer>[] last = new HttpResponse[1];
    return Eventually.holds(
            vertx,
            () ->
                request
                    .get()
                    .map(
                        response -> {
                          last[0] = response;
                          return response.statusCode() != 503;
                        }))
        .map(held -> last[0]);
  }

  private static long finalStatuses(SseClient sse, String runId) {
    return sse.received().stream().filter(finalOf(runId)).count();
  }

  private static Predicate<SseEvent> finalOf(String runId) {
    return event ->
        event.event().equals("agent:status")
            && runId.equals(
                event.data().getJsonObject("detail", new JsonObject()).getString("runId"))
            && FINAL.contains(event.data().getString("state"));
  }

  private static Predicate<SseEvent> envelopeOf(String runId) {
    return event ->
        event.event().equals("agent:action")
            && event
                .data()
                .getJsonArray("actions")
                .getJsonObject(0)
                .getString("id")
                .startsWith(runId + ":");
  }
}
