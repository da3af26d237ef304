package dev.canvasagent.bridge;

import static dev.canvasagent.bridge.BadInputTest.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code POST /api/rooms/{roomId}/transcript}: an utterance is stored (in PostgreSQL here) and answered
 * with 201; every bad body gets a 4xx naming the problem and stores nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TranscriptEndpointTest {
  static final String ROOM = "transcript-room";
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    server = TestServer.start(vertx, Optional.of(database));
  }

  @AfterAll
  void stop() {
    if (server != null) {
      Await.result(server.stop());
      Await.result(vertx.close());
    }
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  @AfterEach
  void nothingWasStoredForTheRefusedRoom() {
    assertEquals(0, stored(ROOM));
  }

  long stored(String roomId) {
    return TestDatabase.queryLong(
        database,
        "SELECT count(*) FROM "
            + database.schema()
            + ".canvas_transcripts WHERE room_id = '"
            + roomId
            + "'");
  }

  HttpResponse<Buffer> post(String roomId, String body) {
    return Await.result(
        server
            .http()
            .post("/api/rooms/" + roomId + "/transcript")
            .putHeader("content-type", "application/json")
            .sendBuffer(Buffer.buffer(body)));
  }

  @Test
  void anUtteranceIsStoredAndAnsweredWith201() {
    long ts = System.currentTimeMillis() - 1_000;
    HttpResponse<Buffer> response =
        post(
            "said-room",
            new JsonObject()
                .put("speaker", "ana")
                .put("text", "make it blue")
                .put("ts", ts)
                .encode());

    assertEquals(201, response.statusCode(), response.bodyAsString());
    assertEquals(
        new JsonObject().put("speaker", "ana").put("text", "make it blue").put("ts", ts),
        response.bodyAsJsonObject().getJsonObject("utterance"));
    assertEquals(1, stored("said-room"));
  }

  @Test
  void withoutTsTheUtteranceIsStampedNow() {
    long before = System.currentTimeMillis();
    HttpResponse<Buffer> response =
        post("stamped-room", "{\"speaker\":\"ben\",\"text\":\"hello\"}");

    assertEquals(201, response.statusCode(), response.bodyAsString());
    long ts = response.bodyAsJsonObject().getJsonObject("utterance").getLong("ts");
    assertEquals(true, ts >= before && ts <= System.currentTimeMillis() + 1, "stamped " + ts);
  }

  static Stream<Arguments> badBodies() {
    return Stream.of(
        Arguments.of("truncated JSON", "{\"speaker\":", "INVALID_JSON", "not valid JSON"),
        Arguments.of("a JSON array", "[]", "INVALID_JSON", "JSON object"),
        Arguments.of("no speaker", "{\"text\":\"hi\"}", "INVALID_REQUEST", "speaker"),
        Arguments.of("no text", "{\"speaker\":\"ana\"}", "INVALID_REQUEST", "text"),
        Arguments.of(
            "an empty speaker", "{\"speaker\":\"\",\"text\":\"hi\"}", "INVALID_REQUEST", "speaker"),
        Arguments.of(
            "a blank text", "{\"speaker\":\"ana\",\"text\":\"   \"}", "INVALID_REQUEST", "text"),
        Arguments.of(
            "a 65-char speaker",
            "{\"speaker\":\"" + "a".repeat(65) + "\",\"text\":\"hi\"}",
            "INVALID_REQUEST",
            "speaker"),
        Arguments.of(
            "a 4001-char text",
            "{\"speaker\":\"ana\",\"text\":\"" + "t".repeat(4001) + "\"}",
            "INVALID_REQUEST",
            "text"),
        Arguments.of(
            "a numeric speaker", "{\"speaker\":7,\"text\":\"hi\"}", "INVALID_REQUEST", "speaker"),
        Arguments.of(
            "a string ts",
            "{\"speaker\":\"ana\",\"text\":\"hi\",\"ts\":\"now\"}",
            "INVALID_REQUEST",
            "ts"),
        Arguments.of(
            "a fractional ts",
            "{\"speaker\":\"ana\",\"text\":\"hi\",\"ts\":1700000000000.5}",
            "INVALID_REQUEST",
            "ts"),
        Arguments.of(
            "a ts in seconds",
            "{\"speaker\":\"ana\",\"text\":\"hi\",\"ts\":1700000000}",
            "INVALID_REQUEST",
            "ts"),
        Arguments.of(
            "a ts past 2100",
            "{\"speaker\":\"ana\",\"text\":\"hi\",\"ts\":4102444800001}",
            "INVALID_REQUEST",
            "ts"),
        Arguments.of(
            "a ts an hour ahead",
            "{\"speaker\":\"ana\",\"text\":\"hi\",\"ts\":"
                + (System.currentTimeMillis() + 3_600_000)
                + "}",
            "INVALID_REQUEST",
            "ts"),
        Arguments.of(
            "an unknown field",
            "{\"speaker\":\"ana\",\"text\":\"hi\",\"who\":\"user\"}",
            "INVALID_REQUEST",
            "who"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badBodies")
  void aBadBodyIsRefusedWith400NamingTheField(
      String what, String body, String code, String mentions) {
    assertError(post(ROOM, body), 400, code, mentions);
  }

  @Test
  void anOversizedBodyIsRefusedWith413() {
    String body = "{\"speaker\":\"ana\",\"text\":\"" + "t".repeat(40_000) + "\"}";
    assertError(
        post(ROOM, body),
        413,
        "BODY_TOO_LARGE",
        String.valueOf(RoomRoutes.TRANSCRIPT_BODY_LIMIT_BYTES));
  }

  @Test
  void aNonJsonBodyIsRefusedWith415() {
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + ROOM + "/transcript")
                .putHeader("content-type", "text/plain")
                .sendBuffer(Buffer.buffer("hello")));
    assertError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "application/json");
  }

  @Test
  void aHostileRoomIdIsRefused() {
    assertError(
        post("a.b", "{\"speaker\":\"ana\",\"text\":\"hi\"}"), 400, "INVALID_REQUEST", "roomId");
    assertEquals(0, stored("a.b"));
  }
}
