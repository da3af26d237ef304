package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every malformed, mistyped, oversized, out-of-range or hostile request gets a 4xx naming the problem
 * and changes nothing: no session, no run, no revision (checked in PostgreSQL at the end).
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
  static final String ROOM = "bad-input-room";
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  SseClient roomWatcher;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    server = TestServer.start(vertx, Optional.of(database));
    roomWatcher = server.events(ROOM);
  }

  @AfterAll
  void stop() {
    if (server != null) {
      assertNothingHappened();
      Await.result(roomWatcher.close());
      Await.result(server.stop());
      Await.result(vertx.close());
    }
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  /** The end state every refused request must leave: no sessions, no runs, no revisions, no events. */
  void assertNothingHappened() {
    JsonObject health = server.get("/health").bodyAsJsonObject().getJsonObject("verticles");
    assertEquals(0, health.getJsonObject("runner").getInteger("finished"));
    assertEquals(0, health.getJsonObject("runner").getInteger("active"));
    assertEquals(0, health.getJsonObject("scheduler").getInteger("waiting"));
    assertEquals(0, health.getJsonObject("patch-engine").getInteger("commits"));
    String schema = database.schema();
    assertEquals(
        0,
        TestDatabase.queryLong(
            database, "SELECT count(*) FROM " + schema + ".canvas_agent_sessions"));
    assertEquals(
        0,
        TestDatabase.queryLong(
            database, "SELECT count(*) FROM " + schema + ".canvas_board_revisions"));
    assertEquals(0, server.board(ROOM).getLong("revision"));
    assertTrue(roomWatcher.received().isEmpty(), "no event reached the room");
  }

  static Stream<Arguments> badRunBodies() {
    String big = "x".repeat(20_001);
    return Stream.of(
        Arguments.of("truncated JSON", "{\"roomId\":", "INVALID_JSON", "not valid JSON"),
        Arguments.of("a JSON array", "[]", "INVALID_JSON", "JSON object"),
        Arguments.of("a JSON string", "\"run\"", "INVALID_JSON", "JSON object"),
        Arguments.of("an empty body", "", "INVALID_JSON", "JSON object"),
        Arguments.of("no roomId", "{\"message\":\"hi\"}", "INVALID_REQUEST", "roomId"),
        Arguments.of("no message", "{\"roomId\":\"" + ROOM + "\"}", "INVALID_REQUEST", "message"),
        Arguments.of(
            "a numeric roomId", "{\"roomId\":7,\"message\":\"hi\"}", "INVALID_REQUEST", "roomId"),
        Arguments.of(
            "a numeric message",
            "{\"roomId\":\"" + ROOM + "\",\"message\":42}",
            "INVALID_REQUEST",
            "message"),
        Arguments.of(
            "a blank message",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"   \"}",
            "INVALID_REQUEST",
            "message"),
        Arguments.of(
            "a message over 20000 chars",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"" + big + "\"}",
            "INVALID_REQUEST",
            "message"),
        Arguments.of(
            "an unknown field",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"temperature\":2}",
            "INVALID_REQUEST",
            "temperature"),
        Arguments.of(
            "a dotted roomId",
            "{\"roomId\":\"a.b\",\"message\":\"hi\"}",
            "INVALID_REQUEST",
            "roomId"),
        Arguments.of(
            "a path-like roomId",
            "{\"roomId\":\"../x\",\"message\":\"hi\"}",
            "INVALID_REQUEST",
            "roomId"),
        Arguments.of(
            "a 65-char roomId",
            "{\"roomId\":\"" + "r".repeat(65) + "\",\"message\":\"hi\"}",
            "INVALID_REQUEST",
            "roomId"),
        Arguments.of(
            "a null model",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"model\":null}",
            "INVALID_REQUEST",
            "model"),
        Arguments.of(
            "a viewport string",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"viewport\":\"all\"}",
            "INVALID_REQUEST",
            "viewport"),
        Arguments.of(
            "a viewport without h",
            "{\"roomId\":\""
                + ROOM
                + "\",\"message\":\"hi\",\"viewport\":{\"x\":0,\"y\":0,\"w\":10}}",
            "INVALID_REQUEST",
            "h"),
        Arguments.of(
            "a zero-width viewport",
            "{\"roomId\":\""
                + ROOM
                + "\",\"message\":\"hi\",\"viewport\":{\"x\":0,\"y\":0,\"w\":0,\"h\":5}}",
            "INVALID_REQUEST",
            "w"),
        Arguments.of(
            "an out-of-range viewport",
            "{\"roomId\":\""
                + ROOM
                + "\",\"message\":\"hi\",\"viewport\":{\"x\":1e12,\"y\":0,\"w\":1,\"h\":5}}",
            "INVALID_REQUEST",
            "x"),
        Arguments.of(
            "a selection string",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"selection\":\"box1\"}",
            "INVALID_REQUEST",
            "selection"),
        Arguments.of(
            "a numeric selected id",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"selection\":[\"a\",7]}",
            "INVALID_REQUEST",
            "selection/1"),
        Arguments.of(
            "an empty selected id",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"selection\":[\"\"]}",
            "INVALID_REQUEST",
            "selection/0"),
        Arguments.of(
            "a 129-char selected id",
            "{\"roomId\":\""
                + ROOM
                + "\",\"message\":\"hi\",\"selection\":[\""
                + "s".repeat(129)
                + "\"]}",
            "INVALID_REQUEST",
            "selection/0"),
        Arguments.of(
            "1001 selected ids",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"selection\":" + ids(1001) + "}",
            "INVALID_REQUEST",
            "selection"),
        Arguments.of(
            "a hostile sessionId",
            "{\"roomId\":\"" + ROOM + "\",\"message\":\"hi\",\"sessionId\":\"'; drop table x;--\"}",
            "INVALID_REQUEST",
            "sessionId"));
  }

  static String ids(int count) {
    return new io.vertx.core.json.JsonArray(
            java.util.stream.IntStream.range(0, count).mapToObj(i -> "s" + i).toList())
        .encode();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRunBodies")
  void aBadRunBodyIsRefusedWith400(String what, String body, String code, String mentions) {
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("content-type", "application/json")
                .sendBuffer(Buffer.buffer(body)));
    assertError(response, 400, code, mentions);
  }

  @Test
  void anUnknownModelIsRefusedWith400NamingIt() {
    HttpResponse<Buffer> response =
        server.postRun(
            new JsonObject().put("roomId", ROOM).put("message", "hi").put("model", "nope:gpt-0"));
    assertError(response, 400, "UNKNOWN_MODEL", "nope:gpt-0");
    assertTrue(
        response
            .bodyAsJsonObject()
            .getJsonObject("error")
            .getString("message")
            .contains("debug/fake"),
        "lists known models");
  }

  @Test
  void anUnknownSessionIsRefusedWith404() {
    HttpResponse<Buffer> response =
        server.postRun(
            new JsonObject()
                .put("roomId", ROOM)
                .put("message", "hi")
                .put("sessionId", "no-such-session"));
    assertError(response, 404, "SESSION_NOT_FOUND", "no-such-session");
  }

  @Test
  void aBodyOverTheLimitIsRefusedWith413() {
    String padding = "x".repeat(server.config().http().bodyLimitBytes() + 10);
    Buffer body = Buffer.buffer("{\"roomId\":\"" + ROOM + "\",\"message\":\"" + padding + "\"}");
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("content-type", "application/json")
                .sendBuffer(body));
    assertError(
        response, 413, "BODY_TOO_LARGE", String.valueOf(server.config().http().bodyLimitBytes()));
  }

  @Test
  void aNonJsonContentTypeIsRefusedWith415() {
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("content-type", "application/x-www-form-urlencoded")
                .sendBuffer(Buffer.buffer("roomId=a&message=b")));
    assertError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "application/json");
  }

  @Test
  void anUnknownRouteIsA404InTheSameShape() {
    assertError(server.get("/api/nothing-here"), 404, "NOT_FOUND", "/api/nothing-here");
  }

  @Test
  void aWrongMethodIsA405() {
    HttpResponse<Buffer> response =
        Await.result(server.http().request(HttpMethod.GET, "/api/canvas-agent/run").send());
    assertError(response, 405, "METHOD_NOT_ALLOWED", "GET");
    HttpResponse<Buffer> delete =
        Await.result(server.http().request(HttpMethod.DELETE, "/health").send());
    assertError(delete, 405, "METHOD_NOT_ALLOWED", "DELETE");
  }

  @Test
  void aHostileRoomIdOnTheEventStreamIsRefused() {
    Throwable failure =
        Await.failure(
            SseClient.connect(vertx, server.port(), "/api/rooms/a.b.agent:action/events"));
    assertTrue(failure.getMessage().contains("400"), failure.getMessage());
    assertError(
        server.get("/api/rooms/" + "r".repeat(65) + "/board"), 400, "INVALID_REQUEST", "roomId");
    assertError(server.get("/api/rooms/a.b/ws"), 400, "INVALID_REQUEST", "roomId");
    Throwable refused =
        Await.failure(dev.canvasagent.support.WsClient.connect(vertx, server.port(), "a.b"));
    assertTrue(refused.getMessage().contains("400"), refused.getMessage());
  }

  @Test
  void badRevisionQueriesAreRefused() {
    assertError(
        server.get("/api/rooms/" + ROOM + "/revisions?after=-1"), 400, "INVALID_REQUEST", "after");
    assertError(
        server.get("/api/rooms/" + ROOM + "/revisions?limit=0"), 400, "INVALID_REQUEST", "limit");
    assertError(
        server.get("/api/rooms/" + ROOM + "/revisions?limit=501"), 400, "INVALID_REQUEST", "limit");
    assertError(
        server.get("/api/rooms/" + ROOM + "/revisions?limit=ten"), 400, "INVALID_REQUEST", "limit");
    assertError(
        server.get("/api/rooms/" + ROOM + "/revisions?after=1&after=2"),
        400,
        "INVALID_REQUEST",
        "after");
  }

  static void assertError(HttpResponse<Buffer> response, int status, String code, String mentions) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    assertTrue(response.getHeader("content-type").startsWith("application/json"));
    JsonObject body = response.bodyAsJsonObject();
    assertFalse(body.getBoolean("ok"));
    assertEquals(code, body.getJsonObject("error").getString("code"));
    String message = body.getJsonObject("error").getString("message");
    assertTrue(message.contains(mentions), "'" + message + "' should mention '" + mentions + "'");
  }
}
