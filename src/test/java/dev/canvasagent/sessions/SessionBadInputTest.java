package dev.canvasagent.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad request to the sessions API gets a 4xx naming the problem and changes nothing: the one
 * session made at the start is exactly as it was, no other session, run, utterance or revision exists
 * (checked in PostgreSQL at the end), and no event reached the room.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionBadInputTest {
  static final String ROOM = "session-bad-input";
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  SseClient roomWatcher;
  JsonObject session;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    server = TestServer.start(vertx, Optional.of(database));
    var created =
        Await.result(
            server
                .http()
                .post("/api/sessions")
                .sendJsonObject(new JsonObject().put("roomId", ROOM).put("title", "Kept")));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    session = created.bodyAsJsonObject().getJsonObject("session");
    roomWatcher = server.events(ROOM);
  }

  @AfterAll
  void stop() {
    if (server != null) {
      assertNothingChanged();
      Await.result(roomWatcher.close());
      Await.result(server.stop());
      Await.result(vertx.close());
    }
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  void assertNothingChanged() {
    var resumed = server.get("/api/sessions/" + session.getString("id")).bodyAsJsonObject();
    assertEquals(session, resumed.getJsonObject("session"), "the session is as it was created");
    String schema = database.schema();
    assertEquals(
        1,
        TestDatabase.queryLong(
            database, "SELECT count(*) FROM " + schema + ".canvas_agent_sessions"));
    for (String table :
        new String[] {
          "canvas_agent_runs",
          "canvas_agent_chat",
          "canvas_agent_todos",
          "canvas_transcripts",
          "canvas_board_revisions"
        }) {
      assertEquals(
          0,
          TestDatabase.queryLong(database, "SELECT count(*) FROM " + schema + "." + table),
          table);
    }
    assertTrue(roomWatcher.received().isEmpty(), "no event reached the room");
  }

  String id() {
    return session.getString("id");
  }

  HttpResponse<Buffer> send(HttpMethod method, String path, String body) {
    var request = server.http().request(method, path);
    return Await.result(
        body == null
            ? request.send()
            : request
                .putHeader("content-type", "application/json")
                .sendBuffer(Buffer.buffer(body)));
  }

  static Stream<Arguments> badCreateBodies() {
    return Stream.of(
        Arguments.of("no roomId", "{}", "INVALID_REQUEST", "roomId"),
        Arguments.of("a dotted roomId", "{\"roomId\":\"a.b\"}", "INVALID_REQUEST", "roomId"),
        Arguments.of(
            "a 201-char title",
            "{\"roomId\":\"" + ROOM + "\",\"title\":\"" + "t".repeat(201) + "\"}",
            "INVALID_REQUEST",
            "title"),
        Arguments.of(
            "a blank title",
            "{\"roomId\":\"" + ROOM + "\",\"title\":\"   \"}",
            "INVALID_REQUEST",
            "title"),
        Arguments.of(
            "a numeric title",
            "{\"roomId\":\"" + ROOM + "\",\"title\":7}",
            "INVALID_REQUEST",
            "title"),
        Arguments.of(
            "an unknown field",
            "{\"roomId\":\"" + ROOM + "\",\"owner\":\"me\"}",
            "INVALID_REQUEST",
            "owner"),
        Arguments.of("not JSON", "{\"roomId\":", "INVALID_JSON", "not valid JSON"),
        Arguments.of("a JSON array", "[]", "INVALID_JSON", "JSON object"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badCreateBodies")
  void aBadCreateBodyIsRefused(String what, String body, String code, String mentions) {
    assertError(send(HttpMethod.POST, "/api/sessions", body), 400, code, mentions);
  }

  @Test
  void anUnknownOrUnconfiguredModelIsRefused() {
    assertError(
        send(
            HttpMethod.POST, "/api/sessions", "{\"roomId\":\"" + ROOM + "\",\"model\":\"nope:x\"}"),
        400,
        "UNKNOWN_MODEL",
        "nope:x");
    assertError(
        send(
            HttpMethod.POST,
            "/api/sessions",
            "{\"roomId\":\"" + ROOM + "\",\"model\":\"anthropic:claude\"}"),
        422,
        "MODEL_NOT_CONFIGURED",
        "ANTHROPIC_API_KEY");
    assertError(
        send(HttpMethod.PATCH, "/api/sessions/" + id(), "{\"model\":\"nope:x\"}"),
        400,
        "UNKNOWN_MODEL",
        "nope:x");
  }

  static Stream<Arguments> badUpdateBodies() {
    String item = "{\"type\":\"point\",\"point\":{\"x\":1,\"y\":2}}";
    String fiftyOne =
        "[" + String.join(",", IntStream.range(0, 51).mapToObj(i -> item).toList()) + "]";
    return Stream.of(
        Arguments.of("an empty change", "{}", "INVALID_REQUEST", "minimum"),
        Arguments.of(
            "a 201-char title",
            "{\"title\":\"" + "t".repeat(201) + "\"}",
            "INVALID_REQUEST",
            "title"),
        Arguments.of(
            "51 context items",
            "{\"contextItems\":" + fiftyOne + "}",
            "INVALID_REQUEST",
            "contextItems"),
        Arguments.of(
            "an unknown item type",
            "{\"contextItems\":[{\"type\":\"lasso\"}]}",
            "INVALID_REQUEST",
            "contextItems/0"),
        Arguments.of(
            "a shape without an id",
            "{\"contextItems\":[{\"type\":\"shape\"}]}",
            "INVALID_REQUEST",
            "contextItems/0"),
        Arguments.of(
            "an area without h",
            "{\"contextItems\":[{\"type\":\"area\",\"bounds\":{\"x\":0,\"y\":0,\"w\":5}}]}",
            "INVALID_REQUEST",
            "contextItems/0"),
        Arguments.of(
            "a far point",
            "{\"contextItems\":[{\"type\":\"point\",\"point\":{\"x\":1e9,\"y\":0}}]}",
            "INVALID_REQUEST",
            "contextItems/0"),
        Arguments.of(
            "a context item string",
            "{\"contextItems\":[\"box1\"]}",
            "INVALID_REQUEST",
            "contextItems/0"),
        Arguments.of("an unknown field", "{\"status\":\"archived\"}", "INVALID_REQUEST", "status"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badUpdateBodies")
  void aBadUpdateBodyIsRefused(String what, String body, String code, String mentions) {
    assertError(send(HttpMethod.PATCH, "/api/sessions/" + id(), body), 400, code, mentions);
  }

  @Test
  void unknownSessionsAre404AndMalformedIds400() {
    for (HttpMethod method : new HttpMethod[] {HttpMethod.GET, HttpMethod.DELETE}) {
      assertError(
          send(method, "/api/sessions/no-such-session", null),
          404,
          "SESSION_NOT_FOUND",
          "no-such-session");
      assertError(
          send(method, "/api/sessions/" + "s".repeat(65), null),
          400,
          "INVALID_REQUEST",
          "sessionId");
      assertError(send(method, "/api/sessions/a.b", null), 400, "INVALID_REQUEST", "sessionId");
    }
    assertError(
        send(HttpMethod.PATCH, "/api/sessions/no-such-session", "{\"title\":\"x\"}"),
        404,
        "SESSION_NOT_FOUND",
        "no-such-session");
    assertError(
        send(HttpMethod.PATCH, "/api/sessions/a.b", "{\"title\":\"x\"}"),
        400,
        "INVALID_REQUEST",
        "sessionId");
    assertError(
        send(HttpMethod.GET, "/api/sessions/" + id() + "?roomId=a.b", null),
        400,
        "INVALID_REQUEST",
        "roomId");
  }

  @Test
  void aSessionOfAnotherRoomIsAConflict() {
    assertError(
        send(HttpMethod.DELETE, "/api/sessions/" + id() + "?roomId=other-room", null),
        409,
        "SESSION_ROOM_MISMATCH",
        id());
    assertError(
        send(
            HttpMethod.PATCH,
            "/api/sessions/" + id() + "?roomId=other-room",
            "{\"title\":\"moved\"}"),
        409,
        "SESSION_ROOM_MISMATCH",
        id());
    assertError(
        send(
            HttpMethod.POST,
            "/api/canvas-agent/run",
            "{\"roomId\":\"other-room\",\"message\":\"hi\",\"sessionId\":\"" + id() + "\"}"),
        409,
        "SESSION_ROOM_MISMATCH",
        id());
  }

  @Test
  void badListQueriesAreRefused() {
    assertError(send(HttpMethod.GET, "/api/sessions", null), 400, "INVALID_REQUEST", "roomId");
    assertError(
        send(HttpMethod.GET, "/api/sessions?roomId=a.b", null), 400, "INVALID_REQUEST", "roomId");
    assertError(
        send(HttpMethod.GET, "/api/sessions?roomId=" + ROOM + "&roomId=x", null),
        400,
        "INVALID_REQUEST",
        "roomId");
    assertError(
        send(HttpMethod.GET, "/api/sessions?roomId=" + ROOM + "&limit=0", null),
        400,
        "INVALID_REQUEST",
        "limit");
    assertError(
        send(HttpMethod.GET, "/api/sessions?roomId=" + ROOM + "&limit=101", null),
        400,
        "INVALID_REQUEST",
        "limit");
  }

  @Test
  void anInvalidTodoStatusIsRefused() {
    assertError(
        send(HttpMethod.GET, "/api/sessions/" + id() + "/todos?status=someday", null),
        400,
        "INVALID_REQUEST",
        "status");
    assertError(
        send(HttpMethod.GET, "/api/sessions/" + id() + "/todos?status=open&status=done", null),
        400,
        "INVALID_REQUEST",
        "status");
    assertEquals(
        new JsonArray(),
        send(HttpMethod.GET, "/api/sessions/" + id() + "/todos?status=open", null)
            .bodyAsJsonObject()
            .getJsonArray("todos"));
  }

  @Test
  void aBadIdempotencyKeyIsRefusedOnEveryWrite() {
    String[][] writes = {
      {"/api/sessions", "{\"roomId\":\"" + ROOM + "\"}"},
      {"/api/canvas-agent/run", "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\"}"},
      {"/api/rooms/" + ROOM + "/transcript", "{\"speaker\":\"ana\",\"text\":\"hi\"}"}
    };
    for (String[] write : writes) {
      for (String key : new String[] {"has space", "k".repeat(129), ""}) {
        HttpResponse<Buffer> response =
            Await.result(
                server
                    .http()
                    .post(write[0])
                    .putHeader("content-type", "application/json")
                    .putHeader("Idempotency-Key", key)
                    .sendBuffer(Buffer.buffer(write[1])));
        assertError(response, 400, "INVALID_REQUEST", "Idempotency-Key");
      }
    }
  }

  @Test
  void oversizedBodiesAre413() {
    String padding = "x".repeat(server.config().http().bodyLimitBytes() + 10);
    assertError(
        send(
            HttpMethod.POST,
            "/api/sessions",
            "{\"roomId\":\"" + ROOM + "\",\"title\":\"" + padding + "\"}"),
        413,
        "BODY_TOO_LARGE",
        "");
    assertError(
        send(HttpMethod.PATCH, "/api/sessions/" + id(), "{\"title\":\"" + padding + "\"}"),
        413,
        "BODY_TOO_LARGE",
        "");
  }

  @Test
  void aWrongMethodIsA405() {
    assertError(
        send(HttpMethod.PUT, "/api/sessions/" + id(), "{\"title\":\"x\"}"),
        405,
        "METHOD_NOT_ALLOWED",
        "PUT");
    assertError(
        send(HttpMethod.DELETE, "/api/sessions", null), 405, "METHOD_NOT_ALLOWED", "DELETE");
  }

  static void assertError(HttpResponse<Buffer> response, int status, String code, String mentions) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(false, body.getBoolean("ok"));
    assertEquals(code, body.getJsonObject("error").getString("code"), body.encode());
    assertTrue(body.getJsonObject("error").getString("message").contains(mentions), body.encode());
  }
}
