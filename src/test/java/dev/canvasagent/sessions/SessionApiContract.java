package dev.canvasagent.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sessions API over real HTTP: create, list, resume, change and delete sessions, several per
 * room, and idempotent retries of every write a client may repeat.
 */
@ExtendWith(VertxExtension.class)
abstract class SessionApiContract {
  TestServer server;
  String roomId;

  abstract Optional<DatabaseConfig> database();

  /** Rows of a table in the store, or -1 where the store has no tables (memory). */
  abstract long rows(String table, String where);

  @BeforeEach
  void start(Vertx vertx) {
    server = TestServer.start(vertx, database());
    roomId = "sessions-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  HttpResponse<Buffer> send(
      HttpMethod method, String path, JsonObject body, String idempotencyKey) {
    var request = server.http().request(method, path);
    if (idempotencyKey != null) {
      request.putHeader("Idempotency-Key", idempotencyKey);
    }
    return Await.result(
        body == null
            ? request.send()
            : request.putHeader("content-type", "application/json").sendJsonObject(body));
  }

  JsonObject created(JsonObject body) {
    HttpResponse<Buffer> response = send(HttpMethod.POST, "/api/sessions", body, null);
    assertEquals(201, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getJsonObject("session");
  }

  JsonObject resume(String sessionId) {
    HttpResponse<Buffer> response = server.get("/api/sessions/" + sessionId);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  List<String> listed(String room) {
    HttpResponse<Buffer> response = server.get("/api/sessions?roomId=" + room);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getJsonArray("sessions").stream()
        .map(s -> ((JsonObject) s).getString("id"))
        .toList();
  }

  /** Posts a run and waits for the final status of its request; answers the run's {@code {sessionId, runId}}. */
  JsonObject runToEnd(SseClient sse, JsonObject request) {
    var response = server.postRun(request);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    JsonObject accepted = response.bodyAsJsonObject();
    Await.result(
        sse.awaitEvent(
            event ->
                event.event().equals("agent:status")
                    && List.of("done", "error", "canceled")
                        .contains(event.data().getString("state"))
                    && dev.canvasagent.support.Requests.ofRequest(
                        event.data().getJsonObject("detail"), accepted.getString("runId"))));
    return accepted;
  }

  @Test
  void aCreatedSessionHasItsTitleTheDefaultModelAndNothingYet() {
    JsonObject session =
        created(new JsonObject().put("roomId", roomId).put("title", "Roadmap review"));

    assertEquals(roomId, session.getString("roomId"));
    assertEquals("Roadmap review", session.getString("title"));
    assertEquals("debug/fake", session.getString("model"));
    assertNull(session.getValue("origin"));
    assertEquals(new JsonArray(), session.getJsonArray("contextItems"));
    assertEquals(session.getLong("createdAt"), session.getLong("lastActiveAt"));

    JsonObject untitled = created(new JsonObject().put("roomId", roomId));
    assertTrue(
        untitled.getString("title").matches("Session \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}"),
        untitled.getString("title"));

    JsonObject resumed = resume(session.getString("id"));
    assertEquals(session, resumed.getJsonObject("session"));
    for (String atom : List.of("chat", "todos", "runs", "transcript")) {
      assertEquals(new JsonArray(), resumed.getJsonArray(atom), atom);
    }
    assertEquals(0, resumed.getLong("boardRevision"));
  }

  @Test
  void aRoomHasSeveralSessionsListedMostRecentlyActiveFirst() {
    SseClient sse = server.events(roomId);
    String first =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "draw a box"))
            .getString("sessionId");
    String second =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "draw a circle"))
            .getString("sessionId");
    String third = created(new JsonObject().put("roomId", roomId)).getString("id");
    String elsewhere = created(new JsonObject().put("roomId", roomId + "-other")).getString("id");

    assertEquals(
        List.of(third, second, first), listed(roomId), "runs without a session each made one");
    runToEnd(
        sse,
        new JsonObject()
            .put("roomId", roomId)
            .put("message", "draw a star")
            .put("sessionId", first));
    assertEquals(List.of(first, third, second), listed(roomId), "a run touches its session");
    assertFalse(listed(roomId).contains(elsewhere));

    HttpResponse<Buffer> limited = server.get("/api/sessions?roomId=" + roomId + "&limit=2");
    assertEquals(2, limited.bodyAsJsonObject().getJsonArray("sessions").size());
    Await.result(sse.close());
  }

  @Test
  void theResumePayloadHoldsEverythingTheSessionHas() {
    var said =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + roomId + "/transcript")
                .sendJsonObject(new JsonObject().put("speaker", "ana").put("text", "let's plan")));
    assertEquals(201, said.statusCode(), said.bodyAsString());
    SseClient sse = server.events(roomId);
    JsonObject viewport = new JsonObject().put("x", 100).put("y", 50).put("w", 800).put("h", 600);
    JsonObject planned =
        runToEnd(
            sse,
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "/todos")
                .put("viewport", viewport));
    String sessionId = planned.getString("sessionId");
    runToEnd(
        sse,
        new JsonObject()
            .put("roomId", roomId)
            .put("message", "draw a box")
            .put("sessionId", sessionId));

    JsonObject resumed = resume(sessionId);

    JsonObject session = resumed.getJsonObject("session");
    assertEquals(
        new JsonObject().put("x", 100.0).put("y", 50.0),
        session.getJsonObject("origin"),
        "the chat origin the first run fixed");
    assertTrue(session.getLong("lastActiveAt") >= session.getLong("createdAt"));
    List<String> userMessages =
        resumed.getJsonArray("chat").stream()
            .map(JsonObject.class::cast)
            .filter(message -> message.getString("role").equals("user"))
            .map(message -> message.getString("text"))
            .toList();
    assertEquals(List.of("/todos", "draw a box"), userMessages);
    assertTrue(
        resumed.getJsonArray("chat").stream()
            .map(JsonObject.class::cast)
            .anyMatch(m -> m.getString("role").equals("assistant")));
    assertFalse(resumed.getJsonArray("todos").isEmpty(), "the /todos run's list");
    assertEquals(
        server
            .get("/api/sessions/" + sessionId + "/todos")
            .bodyAsJsonObject()
            .getJsonArray("todos"),
        resumed.getJsonArray("todos"));
    JsonArray runs = resumed.getJsonArray("runs");
    assertTrue(
        runs.size() >= 2,
        "the two requests, and the follow-ups the open todos earned: " + runs.encode());
    assertEquals(
        planned.getString("runId"),
        runs.getJsonObject(runs.size() - 1).getString("runId"),
        "newest first");
    assertEquals("done", runs.getJsonObject(0).getString("state"), "the last request ended");
    for (Object run : runs) {
      assertTrue(
          List.of("done", "scheduled").contains(((JsonObject) run).getString("state")),
          ((JsonObject) run).encode());
      assertEquals(
          ((JsonObject) run).getString("runId"),
          ((JsonObject) run).getJsonObject("detail").getString("runId"));
    }
    assertEquals(
        "let's plan", resumed.getJsonArray("transcript").getJsonObject(0).getString("text"));
    assertEquals(server.board(roomId).getLong("revision"), resumed.getLong("boardRevision"));
    Await.result(sse.close());
  }

  @Test
  void aPatchChangesTitleModelAndContextItems() {
    String sessionId = created(new JsonObject().put("roomId", roomId)).getString("id");
    JsonArray items =
        new JsonArray()
            .add(new JsonObject().put("type", "shape").put("shapeId", "box1"))
            .add(
                new JsonObject()
                    .put("type", "area")
                    .put(
                        "bounds",
                        new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 20)))
            .add(
                new JsonObject()
                    .put("type", "point")
                    .put("point", new JsonObject().put("x", 5).put("y", -5)));

    HttpResponse<Buffer> patched =
        send(
            HttpMethod.PATCH,
            "/api/sessions/" + sessionId,
            new JsonObject().put("title", "Poster").put("contextItems", items),
            null);

    assertEquals(200, patched.statusCode(), patched.bodyAsString());
    JsonObject session = resume(sessionId).getJsonObject("session");
    assertEquals("Poster", session.getString("title"));
    assertEquals(items, session.getJsonArray("contextItems"));
    assertEquals("debug/fake", session.getString("model"));
    assertEquals(
        200,
        send(
                HttpMethod.PATCH,
                "/api/sessions/" + sessionId,
                new JsonObject().put("contextItems", new JsonArray()),
                null)
            .statusCode());
    assertEquals(
        new JsonArray(),
        resume(sessionId).getJsonObject("session").getJsonArray("contextItems"),
        "[] clears them");
  }

  @Test
  void deletingASessionRemovesItAndItsAtomsButNotTheRoomsBoard() {
    SseClient sse = server.events(roomId);
    String sessionId =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "/todos"))
            .getString("sessionId");
    String other =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "draw a box"))
            .getString("sessionId");
    long revision = server.board(roomId).getLong("revision");

    HttpResponse<Buffer> deleted =
        send(HttpMethod.DELETE, "/api/sessions/" + sessionId, null, null);

    assertEquals(200, deleted.statusCode(), deleted.bodyAsString());
    assertEquals(404, server.get("/api/sessions/" + sessionId).statusCode());
    assertEquals(404, server.get("/api/sessions/" + sessionId + "/todos").statusCode());
    assertEquals(
        404,
        send(HttpMethod.DELETE, "/api/sessions/" + sessionId, null, null).statusCode(),
        "deleting twice");
    assertEquals(List.of(other), listed(roomId));
    assertEquals(revision, server.board(roomId).getLong("revision"), "the board is the room's");
    for (String table : List.of("canvas_agent_chat", "canvas_agent_todos", "canvas_agent_runs")) {
      long left = rows(table, "session_id = '" + sessionId + "'");
      assertTrue(left <= 0, table + " still has " + left + " rows of the session");
    }
    assertEquals(
        404,
        server
            .postRun(
                new JsonObject()
                    .put("roomId", roomId)
                    .put("message", "hi")
                    .put("sessionId", sessionId))
            .statusCode(),
        "a deleted session takes no runs");
    Await.result(sse.close());
  }

  @Test
  void aRetriedRunWithTheSameKeyIsOneRunInOneSession() {
    SseClient sse = server.events(roomId);
    JsonObject request = new JsonObject().put("roomId", roomId).put("message", "draw a box");
    HttpResponse<Buffer> first = send(HttpMethod.POST, "/api/canvas-agent/run", request, "retry-1");
    assertEquals(202, first.statusCode(), first.bodyAsString());
    JsonObject accepted = first.bodyAsJsonObject();
    Await.result(
        sse.awaitEvent(
            event ->
                event.event().equals("agent:status")
                    && event.data().getString("state").equals("done")));

    HttpResponse<Buffer> again = send(HttpMethod.POST, "/api/canvas-agent/run", request, "retry-1");

    assertEquals(202, again.statusCode(), again.bodyAsString());
    assertEquals(accepted, again.bodyAsJsonObject(), "the first result");
    String sessionId = accepted.getString("sessionId");
    assertEquals(List.of(sessionId), listed(roomId));
    JsonObject resumed = resume(sessionId);
    assertEquals(1, resumed.getJsonArray("runs").size());
    assertEquals(
        1,
        resumed.getJsonArray("chat").stream()
            .filter(m -> ((JsonObject) m).getString("role").equals("user"))
            .count());
    HttpResponse<Buffer> otherKey =
        send(
            HttpMethod.POST,
            "/api/canvas-agent/run",
            request.copy().put("sessionId", sessionId),
            "retry-2");
    assertNotEquals(
        accepted.getString("runId"),
        otherKey.bodyAsJsonObject().getString("runId"),
        "another key is another run");
    Await.result(
        sse.awaitEvent(
            event ->
                event.event().equals("agent:status")
                    && event.data().getString("state").equals("done")
                    && event
                        .data()
                        .getJsonObject("detail")
                        .getString("runId")
                        .equals(otherKey.bodyAsJsonObject().getString("runId"))));
    assertEquals(
        1L,
        sse.received().stream()
            .filter(
                event ->
                    event.event().equals("agent:status")
                        && event.data().getString("state").equals("waiting_context")
                        && event
                            .data()
                            .getJsonObject("detail")
                            .getString("runId")
                            .equals(accepted.getString("runId")))
            .count(),
        "the retry ran nothing");
    Await.result(sse.close());
  }

  @Test
  void aRetriedSessionOrUtteranceWithTheSameKeyIsStoredOnce() {
    JsonObject body = new JsonObject().put("roomId", roomId).put("title", "Once");
    HttpResponse<Buffer> first = send(HttpMethod.POST, "/api/sessions", body, "create-1");
    HttpResponse<Buffer> again = send(HttpMethod.POST, "/api/sessions", body.copy(), "create-1");

    assertEquals(201, first.statusCode(), first.bodyAsString());
    assertEquals(first.bodyAsJsonObject(), again.bodyAsJsonObject(), "the first result");
    assertEquals(1, listed(roomId).size());
    long stored = rows("canvas_agent_sessions", "room_id = '" + roomId + "'");
    assertTrue(stored == -1 || stored == 1, stored + " sessions stored");

    JsonObject said = new JsonObject().put("speaker", "ana").put("text", "make it blue");
    HttpResponse<Buffer> utterance =
        send(HttpMethod.POST, "/api/rooms/" + roomId + "/transcript", said, "say-1");
    HttpResponse<Buffer> repeated =
        send(HttpMethod.POST, "/api/rooms/" + roomId + "/transcript", said, "say-1");
    assertEquals(201, repeated.statusCode(), repeated.bodyAsString());
    assertEquals(utterance.bodyAsJsonObject(), repeated.bodyAsJsonObject());
    assertEquals(1, resume(listed(roomId).get(0)).getJsonArray("transcript").size());
  }

  @Test
  void aSessionOfAnotherRoomIsAConflictWhereARoomIsGiven() {
    JsonObject session = created(new JsonObject().put("roomId", roomId));
    String sessionId = session.getString("id");

    for (HttpMethod method : List.of(HttpMethod.GET, HttpMethod.DELETE)) {
      HttpResponse<Buffer> response =
          send(method, "/api/sessions/" + sessionId + "?roomId=elsewhere", null, null);
      assertEquals(409, response.statusCode(), response.bodyAsString());
      assertEquals(
          "SESSION_ROOM_MISMATCH",
          response.bodyAsJsonObject().getJsonObject("error").getString("code"));
    }
    assertEquals(
        409,
        send(
                HttpMethod.PATCH,
                "/api/sessions/" + sessionId + "?roomId=elsewhere",
                new JsonObject().put("title", "moved"),
                null)
            .statusCode());
    assertEquals(
        409,
        server
            .postRun(
                new JsonObject()
                    .put("roomId", "elsewhere")
                    .put("message", "hi")
                    .put("sessionId", sessionId))
            .statusCode());
    assertEquals(200, server.get("/api/sessions/" + sessionId + "?roomId=" + roomId).statusCode());
    assertEquals(List.of(sessionId), listed(roomId), "still there");
    assertEquals(session, resume(sessionId).getJsonObject("session"), "unchanged");
  }
}
