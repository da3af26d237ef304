package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A NUL character (U+0000) in any text a client sends — a JSON body's value or key, a WebSocket or
 * SockJS frame's payload — is refused at the edge naming the field's JSON pointer, on PostgreSQL,
 * whose {@code text} and {@code jsonb} cannot hold it: never {@code 503 STORE_UNAVAILABLE} with the
 * driver's {@code invalid byte sequence}. Nothing changes: every table of the schema and everything
 * the read side shows is as it was ({@link NulFromModelTest}: what a model writes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NulTextTest {
  static final String ROOM = "nul-text";
  static final String NUL = "\u0000";

  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  Connection connection;
  StateFingerprint fingerprint;
  StateFingerprint.Scope scope;
  String sessionId;
  String docId;

  @BeforeAll
  void start() throws SQLException {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    server = TestServer.start(vertx, Optional.of(database));
    connection =
        DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
    HttpResponse<Buffer> session =
        send(
            HttpMethod.POST,
            "/api/sessions",
            new JsonObject().put("roomId", ROOM).put("title", "Kept"));
    assertEquals(201, session.statusCode(), session.bodyAsString());
    sessionId = session.bodyAsJsonObject().getJsonObject("session").getString("id");
    HttpResponse<Buffer> doc =
        send(
            HttpMethod.POST,
            "/api/docs",
            new JsonObject().put("roomId", ROOM).put("content", "# Plan\n"));
    assertEquals(201, doc.statusCode(), doc.bodyAsString());
    docId = doc.bodyAsJsonObject().getString("id");
    fingerprint = new StateFingerprint(vertx, this::tables);
    scope = new StateFingerprint.Scope(Set.of(ROOM, docId), Set.of(sessionId), Set.of(docId));
  }

  @AfterAll
  void stop() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
    Await.result(vertx.close());
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  static JsonObject box(String label) {
    return ShapeRecords.shape(
        "shape:nul", "geo", 10, 20, "a1", ShapeRecords.geoProps("rectangle", 100, 50, label));
  }

  static JsonObject change(String label) {
    return new JsonObject().put("baseRevision", 0).put("put", new JsonArray().add(box(label)));
  }

  /** Each body with a NUL somewhere, and the JSON pointer the refusal names. */
  Stream<Arguments> bodies() {
    return Stream.of(
        Arguments.of(
            "session title",
            HttpMethod.POST,
            "/api/sessions",
            new JsonObject().put("roomId", ROOM).put("title", "Road" + NUL + "map"),
            "#/title"),
        Arguments.of(
            "session title change",
            HttpMethod.PATCH,
            "/api/sessions/" + sessionId,
            new JsonObject().put("title", NUL),
            "#/title"),
        Arguments.of(
            "transcript text",
            HttpMethod.POST,
            "/api/rooms/" + ROOM + "/transcript",
            new JsonObject().put("speaker", "Ann").put("text", "ship it" + NUL),
            "#/text"),
        Arguments.of(
            "transcript speaker",
            HttpMethod.POST,
            "/api/rooms/" + ROOM + "/transcript",
            new JsonObject().put("speaker", "A" + NUL + "nn").put("text", "ship it"),
            "#/speaker"),
        Arguments.of(
            "run message",
            HttpMethod.POST,
            "/api/canvas-agent/run",
            new JsonObject()
                .put("roomId", ROOM)
                .put("sessionId", sessionId)
                .put("message", "draw a box" + NUL),
            "#/message"),
        Arguments.of(
            "document-agent instruction",
            HttpMethod.POST,
            "/api/docs/" + docId + "/agent",
            new JsonObject()
                .put("instruction", "/doc-fix Plan => Pl" + NUL + "an")
                .put("model", "debug/fake"),
            "#/instruction"),
        Arguments.of(
            "edit-request context",
            HttpMethod.POST,
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", docId)
                .put("instruction", "/doc-fix Plan => Goal")
                .put("model", "debug/fake")
                .put(
                    "context",
                    new JsonObject().put("notes", new JsonArray().add("fine").add("bad" + NUL))),
            "#/context/notes/1"),
        Arguments.of(
            "edit-request key",
            HttpMethod.POST,
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", docId)
                .put("instruction", "/doc-fix Plan => Goal")
                .put("model", "debug/fake")
                .put("context", new JsonObject().put("a/b" + NUL, "x")),
            "#/context/a~1b\\u0000"),
        Arguments.of(
            "board change record text",
            HttpMethod.POST,
            "/api/rooms/" + ROOM + "/changes",
            change("hi" + NUL),
            "#/put/0/props/richText"),
        Arguments.of(
            "document title",
            HttpMethod.POST,
            "/api/docs",
            new JsonObject().put("roomId", ROOM).put("title", NUL).put("content", "x\n"),
            "#/title"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodies")
  void aNulInABodyIsRefusedNamingTheFieldAndChangesNothing(
      String what, HttpMethod method, String path, JsonObject body, String pointer) {
    Map<String, String> before = fingerprint.capture(scope);

    HttpResponse<Buffer> response = send(method, path, body);

    assertEquals(400, response.statusCode(), what + ": " + response.bodyAsString());
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertEquals("INVALID_REQUEST", error.getString("code"), response.bodyAsString());
    assertTrue(
        error.getString("message").startsWith(pointer), what + ": " + error.getString("message"));
    assertTrue(error.getString("message").contains("U+0000"), error.getString("message"));
    assertEquals(
        List.of(),
        StateFingerprint.changed(before, fingerprint.capture(scope)),
        what + " changed nothing");
  }

  @Test
  void aNulInAWebSocketFrameIsAnErrorFrameNamingTheFieldAndChangesNothing() {
    Map<String, String> before = fingerprint.capture(scope);
    WsClient ws = Await.result(WsClient.connect(vertx, server.port(), ROOM, null));

    ws.send("canvas:change", change("hi" + NUL));
    List<JsonObject> frames = Await.result(ws.awaitTopic("error", payload -> true));

    JsonObject refusal =
        frames.stream()
            .filter(frame -> "error".equals(frame.getString("topic")))
            .findFirst()
            .orElseThrow()
            .getJsonObject("payload");
    assertEquals("INVALID_PAYLOAD", refusal.getString("code"), refusal.encode());
    assertTrue(
        refusal.getString("message").startsWith("canvas:change: #/put/0/props/richText"),
        refusal.encode());
    assertTrue(refusal.getString("message").contains("U+0000"), refusal.encode());
    Await.result(ws.close());
    assertEquals(
        List.of(),
        StateFingerprint.changed(before, fingerprint.capture(scope)),
        "the frame changed nothing");
  }

  @Test
  void aNulInASockJsMessageIsRefusedNamingTheFieldAndChangesNothing() {
    Map<String, String> before = fingerprint.capture(scope);
    FrameSocket socket =
        Await.result(FrameSocket.connect(vertx, server.port(), "/eventbus/websocket"));
    socket.send(
        new JsonObject()
            .put("type", "register")
            .put("address", "room." + ROOM + ".agent:status")
            .encode());
    socket.send(
        new JsonObject()
            .put("type", "send")
            .put("address", "room." + ROOM + ".canvas:change")
            .put("replyAddress", "r-nul")
            .put("body", change("hi" + NUL))
            .encode());

    int at = Await.result(socket.await(0, frame -> "r-nul".equals(frame.getString("address"))));

    JsonObject refusal = socket.frames(at, at + 1).get(0);
    assertEquals("err", refusal.getString("type"), refusal.encode());
    assertTrue(
        refusal
            .getString("message")
            .startsWith("INVALID_PAYLOAD: canvas:change: #/put/0/props/richText"),
        refusal.encode());
    Await.result(socket.close());
    assertEquals(
        List.of(),
        StateFingerprint.changed(before, fingerprint.capture(scope)),
        "the message changed nothing");
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, JsonObject body) {
    return Await.result(
        server
            .http()
            .request(method, path)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }

  /** Per table of the server's schema, a hash of all its rows: a refusal that wrote anything is caught. */
  private Map<String, String> tables() {
    Map<String, String> hashes = new TreeMap<>();
    try (Statement statement = connection.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows =
          statement.executeQuery(
              "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                  + database.schema()
                  + "' AND table_type = 'BASE TABLE' ORDER BY table_name")) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
      for (String table : tables) {
        try (ResultSet rows =
            statement.executeQuery(
                "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM "
                    + database.schema()
                    + "."
                    + table
                    + " t")) {
          rows.next();
          hashes.put("table " + table, rows.getString(1));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return hashes;
  }
}
