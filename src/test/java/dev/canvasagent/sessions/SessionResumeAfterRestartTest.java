package dev.canvasagent.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A conversation survives the server: every verticle is undeployed and the store closed, a new server
 * is started on the same PostgreSQL schema, and the session resumes where it was — chat, todos,
 * transcript, board revision, origin — and a new run in it continues its seqs.
 */
@ExtendWith(VertxExtension.class)
class SessionResumeAfterRestartTest {
  static final String ROOM = "resume-room";
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

  static List<SseEvent> runToEnd(TestServer server, SseClient sse, JsonObject request) {
    var response = server.postRun(request);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String runId = response.bodyAsJsonObject().getString("runId");
    List<SseEvent> events =
        Await.result(
            sse.awaitEvent(
                event ->
                    event.event().equals("agent:status")
                        && dev.canvasagent.support.Requests.ofRequest(
                            event.data().getJsonObject("detail"), runId)
                        && List.of("done", "error", "canceled")
                            .contains(event.data().getString("state"))));
    assertEquals("done", events.get(events.size() - 1).data().getString("state"));
    return events.stream()
        .filter(
            event ->
                event.event().equals("agent:action")
                    && runId.equals(
                        event
                            .data()
                            .getJsonArray("actions")
                            .getJsonObject(0)
                            .getString("id")
                            .split(":")[0]))
        .toList();
  }

  @Test
  void aSessionResumesAfterARestartAndItsNextRunContinuesIt(Vertx vertx) {
    TestServer first = TestServer.start(vertx, Optional.of(database));
    var said =
        Await.result(
            first
                .http()
                .post("/api/rooms/" + ROOM + "/transcript")
                .sendJsonObject(
                    new JsonObject().put("speaker", "ana").put("text", "a plan first")));
    assertEquals(201, said.statusCode());
    SseClient sse = first.events(ROOM);
    JsonObject viewport = new JsonObject().put("x", -40).put("y", 25).put("w", 800).put("h", 600);
    var accepted =
        first.postRun(
            new JsonObject()
                .put("roomId", ROOM)
                .put("message", "/todos")
                .put("viewport", viewport));
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    Await.result(
        sse.awaitEvent(
            event ->
                event.event().equals("agent:status")
                    && event.data().getString("state").equals("done")));
    List<SseEvent> drawn =
        runToEnd(
            first,
            sse,
            new JsonObject()
                .put("roomId", ROOM)
                .put("sessionId", sessionId)
                .put("message", "draw a box"));
    long lastSeq =
        drawn.stream().mapToLong(event -> event.data().getLong("seq")).max().orElseThrow();
    JsonObject before = first.get("/api/sessions/" + sessionId).bodyAsJsonObject();
    Await.result(sse.close());
    Await.result(first.stop());

    TestServer second =
        TestServer.start(vertx, TestServer.config(Map.of()).withDatabase(Optional.of(database)));
    try {
      JsonObject after = second.get("/api/sessions/" + sessionId).bodyAsJsonObject();
      assertEquals(before, after, "the whole resume payload survives");
      assertEquals(
          new JsonObject().put("x", -40.0).put("y", 25.0),
          after.getJsonObject("session").getJsonObject("origin"));
      assertFalse(after.getJsonArray("todos").isEmpty());
      assertEquals(
          List.of("/todos", "draw a box"),
          after.getJsonArray("chat").stream()
              .map(JsonObject.class::cast)
              .filter(message -> message.getString("role").equals("user"))
              .map(message -> message.getString("text"))
              .toList());
      assertEquals(
          "a plan first", after.getJsonArray("transcript").getJsonObject(0).getString("text"));
      assertTrue(after.getLong("boardRevision") > 0);
      List<String> states =
          after.getJsonArray("runs").stream()
              .map(run -> ((JsonObject) run).getString("state"))
              .toList();
      assertEquals("done", states.get(0), "the last request ended: " + states);
      assertTrue(
          states.stream().allMatch(state -> List.of("done", "scheduled").contains(state)),
          states.toString());
      assertEquals(
          List.of(sessionId),
          second
              .get("/api/sessions?roomId=" + ROOM)
              .bodyAsJsonObject()
              .getJsonArray("sessions")
              .stream()
              .map(session -> ((JsonObject) session).getString("id"))
              .toList());

      SseClient resumed = second.events(ROOM);
      List<SseEvent> next =
          runToEnd(
              second,
              resumed,
              new JsonObject()
                  .put("roomId", ROOM)
                  .put("sessionId", sessionId)
                  .put("message", "draw a star")
                  .put(
                      "viewport",
                      new JsonObject().put("x", 500).put("y", 500).put("w", 800).put("h", 600)));
      assertFalse(next.isEmpty());
      assertTrue(
          next.get(0).data().getLong("seq") > lastSeq,
          "the seq continues: " + next.get(0).data().getLong("seq") + " after " + lastSeq);
      JsonObject continued = second.get("/api/sessions/" + sessionId).bodyAsJsonObject();
      assertEquals(
          after.getJsonObject("session").getJsonObject("origin"),
          continued.getJsonObject("session").getJsonObject("origin"),
          "the origin is kept");
      assertTrue(
          continued.getJsonArray("runs").size() > after.getJsonArray("runs").size(),
          "the new request's runs are added");
      assertTrue(continued.getJsonArray("chat").size() > after.getJsonArray("chat").size());
      Await.result(resumed.close());
    } finally {
      Await.result(second.stop());
    }
  }
}
