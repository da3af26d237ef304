package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every route that takes an id — in its path, its query or its body — refuses a valid id with a line
 * terminator appended: {@code 400 INVALID_REQUEST} naming the field, and nothing changes (not in the
 * room, nor in the room the id with its terminator would name). Auth is off, so every request holds
 * the open grant, an admin's: the id check is all that stands in the way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdLineTerminatorsTest {
  static final String ROOM = "ids-room";

  /** A line terminator Java's {@code $} would let through before the end of an id. */
  record Terminator(String text) {
    @Override
    public String toString() {
      return "U+" + String.format("%04X", (int) text.charAt(0));
    }
  }

  static final List<Terminator> TERMINATORS =
      List.of(new Terminator("\n"), new Terminator("\r"), new Terminator("\u2028"));

  /** One request: its method, its URI and body given the ids to use, and the field its refusal names. */
  record Case(
      String name,
      HttpMethod method,
      Function<Ids, String> uri,
      Function<Ids, JsonObject> body,
      String field) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** The ids a case puts in its request: the room's, its session's, its document's and revision. */
  record Ids(String room, String session, String doc, String revision) {
    /** These ids, with {@code terminator} appended to the one named {@code which}. */
    Ids with(String which, String terminator) {
      return new Ids(
          which.equals("room") ? room + terminator : room,
          which.equals("session") ? session + terminator : session,
          which.equals("doc") ? doc + terminator : doc,
          which.equals("revision") ? revision + terminator : revision);
    }
  }

  static String path(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  static Case inPath(
      String which,
      String field,
      HttpMethod method,
      Function<Ids, String> uri,
      Function<Ids, JsonObject> body) {
    return new Case(
        method
            + " "
            + uri.apply(new Ids(":room", ":session", ":doc", ":revision"))
            + " ("
            + which
            + " in the path)",
        method,
        uri,
        body,
        field);
  }

  static final List<Object[]> CASES =
      List.of(
          new Object[] {
            "room",
            inPath(
                "room",
                "roomId",
                HttpMethod.GET,
                ids -> "/api/rooms/" + path(ids.room()) + "/board",
                null)
          },
          new Object[] {
            "room",
            inPath(
                "room",
                "roomId",
                HttpMethod.GET,
                ids -> "/api/rooms/" + path(ids.room()) + "/revisions",
                null)
          },
          new Object[] {
            "room",
            inPath(
                "room",
                "roomId",
                HttpMethod.GET,
                ids -> "/api/rooms/" + path(ids.room()) + "/events",
                null)
          },
          new Object[] {
            "room",
            inPath(
                "room",
                "roomId",
                HttpMethod.GET,
                ids -> "/api/rooms/" + path(ids.room()) + "/ws",
                null)
          },
          new Object[] {
            "room",
            inPath(
                "room",
                "roomId",
                HttpMethod.POST,
                ids -> "/api/rooms/" + path(ids.room()) + "/changes",
                ids -> new JsonObject().put("baseRevision", 0).put("put", new JsonArray()))
          },
          new Object[] {
            "room",
            inPath(
                "room",
                "roomId",
                HttpMethod.POST,
                ids -> "/api/rooms/" + path(ids.room()) + "/transcript",
                ids -> new JsonObject().put("speaker", "ana").put("text", "hello"))
          },
          new Object[] {
            "session",
            inPath(
                "session",
                "sessionId",
                HttpMethod.GET,
                ids -> "/api/sessions/" + path(ids.session()),
                null)
          },
          new Object[] {
            "session",
            inPath(
                "session",
                "sessionId",
                HttpMethod.PATCH,
                ids -> "/api/sessions/" + path(ids.session()),
                ids -> new JsonObject().put("title", "renamed"))
          },
          new Object[] {
            "session",
            inPath(
                "session",
                "sessionId",
                HttpMethod.DELETE,
                ids -> "/api/sessions/" + path(ids.session()),
                null)
          },
          new Object[] {
            "session",
            inPath(
                "session",
                "sessionId",
                HttpMethod.GET,
                ids -> "/api/sessions/" + path(ids.session()) + "/todos",
                null)
          },
          new Object[] {
            "doc",
            inPath("doc", "docId", HttpMethod.GET, ids -> "/api/docs/" + path(ids.doc()), null)
          },
          new Object[] {
            "doc",
            inPath(
                "doc",
                "docId",
                HttpMethod.GET,
                ids -> "/api/docs/" + path(ids.doc()) + "/revisions",
                null)
          },
          new Object[] {
            "doc",
            inPath(
                "doc",
                "docId",
                HttpMethod.PUT,
                ids -> "/api/docs/" + path(ids.doc()),
                ids ->
                    new JsonObject()
                        .put("content", "changed\n")
                        .put("baseRevisionId", ids.revision()))
          },
          new Object[] {
            "doc",
            inPath(
                "doc",
                "docId",
                HttpMethod.POST,
                ids -> "/api/docs/" + path(ids.doc()) + "/lease/preempt",
                null)
          },
          new Object[] {
            "doc",
            inPath(
                "doc",
                "docId",
                HttpMethod.POST,
                ids -> "/api/docs/" + path(ids.doc()) + "/tools/canvas_check_out",
                ids -> new JsonObject().put("holder", "ids-test"))
          },
          new Object[] {
            "doc",
            inPath(
                "doc",
                "docId",
                HttpMethod.POST,
                ids -> "/api/docs/" + path(ids.doc()) + "/agent",
                ids ->
                    new JsonObject()
                        .put("instruction", "/doc-fix changed => kept")
                        .put("model", "debug/fake"))
          },
          new Object[] {
            "room",
            new Case(
                "GET /api/sessions?roomId=",
                HttpMethod.GET,
                ids -> "/api/sessions?roomId=" + path(ids.room()),
                null,
                "roomId")
          },
          new Object[] {
            "room",
            new Case(
                "GET /api/sessions/{id}?roomId=",
                HttpMethod.GET,
                ids -> "/api/sessions/" + ids.session() + "?roomId=" + path(ids.room()),
                null,
                "roomId")
          },
          new Object[] {
            "room",
            new Case(
                "PATCH /api/sessions/{id}?roomId=",
                HttpMethod.PATCH,
                ids -> "/api/sessions/" + ids.session() + "?roomId=" + path(ids.room()),
                ids -> new JsonObject().put("title", "moved"),
                "roomId")
          },
          new Object[] {
            "room",
            new Case(
                "DELETE /api/sessions/{id}?roomId=",
                HttpMethod.DELETE,
                ids -> "/api/sessions/" + ids.session() + "?roomId=" + path(ids.room()),
                null,
                "roomId")
          },
          new Object[] {
            "room",
            new Case(
                "POST /api/canvas-agent/run {roomId}",
                HttpMethod.POST,
                ids -> "/api/canvas-agent/run",
                ids -> new JsonObject().put("roomId", ids.room()).put("message", "draw a box"),
                "roomId")
          },
          new Object[] {
            "session",
            new Case(
                "POST /api/canvas-agent/run {sessionId}",
                HttpMethod.POST,
                ids -> "/api/canvas-agent/run",
                ids ->
                    new JsonObject()
                        .put("roomId", ids.room())
                        .put("sessionId", ids.session())
                        .put("message", "draw a box"),
                "sessionId")
          },
          new Object[] {
            "session",
            new Case(
                "POST /api/canvas-agent/cancel {sessionId}",
                HttpMethod.POST,
                ids -> "/api/canvas-agent/cancel",
                ids -> new JsonObject().put("sessionId", ids.session()),
                "sessionId")
          },
          new Object[] {
            "room",
            new Case(
                "POST /api/sessions {roomId}",
                HttpMethod.POST,
                ids -> "/api/sessions",
                ids -> new JsonObject().put("roomId", ids.room()).put("title", "new"),
                "roomId")
          },
          new Object[] {
            "room",
            new Case(
                "POST /api/docs {roomId}",
                HttpMethod.POST,
                ids -> "/api/docs",
                ids -> new JsonObject().put("roomId", ids.room()).put("content", "notes\n"),
                "roomId")
          },
          new Object[] {
            "session",
            new Case(
                "POST /api/docs/{id}/agent {sessionId}",
                HttpMethod.POST,
                ids -> "/api/docs/" + ids.doc() + "/agent",
                ids ->
                    new JsonObject()
                        .put("instruction", "/doc-fix first => 1st")
                        .put("model", "debug/fake")
                        .put("sessionId", ids.session()),
                "sessionId")
          },
          new Object[] {
            "session",
            new Case(
                "POST /api/canvas-agent/edit-request {canvas_session_id}",
                HttpMethod.POST,
                ids -> "/api/canvas-agent/edit-request",
                ids ->
                    new JsonObject()
                        .put("canvas_session_id", ids.session())
                        .put("instruction", "/doc-fix first => 1st")
                        .put("model", "debug/fake"),
                "canvas_session_id")
          },
          new Object[] {
            "revision",
            new Case(
                "PUT /api/docs/{id} {baseRevisionId}",
                HttpMethod.PUT,
                ids -> "/api/docs/" + ids.doc(),
                ids ->
                    new JsonObject()
                        .put("content", "changed\n")
                        .put("baseRevisionId", ids.revision()),
                "baseRevisionId")
          },
          new Object[] {
            "revision",
            new Case(
                "POST /api/docs/{id}/tools/canvas_replace_lines {base_revision_id}",
                HttpMethod.POST,
                ids -> "/api/docs/" + ids.doc() + "/tools/canvas_replace_lines",
                ids ->
                    new JsonObject()
                        .put("lease_id", "no-lease")
                        .put("canvas_epoch", 0)
                        .put("start_line", 1)
                        .put("end_line", 1)
                        .put("new_content", "x")
                        .put("base_revision_id", ids.revision()),
                "base_revision_id")
          });

  Vertx vertx;
  TestServer server;
  StateFingerprint fingerprint;
  StateFingerprint.Scope scope;
  Ids ids;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(Map.of()));
    HttpResponse<Buffer> session =
        Await.result(
            server
                .http()
                .post("/api/sessions")
                .sendJsonObject(new JsonObject().put("roomId", ROOM)));
    assertEquals(201, session.statusCode(), session.bodyAsString());
    HttpResponse<Buffer> doc =
        Await.result(
            server
                .http()
                .post("/api/docs")
                .sendJsonObject(
                    new JsonObject().put("roomId", ROOM).put("content", "first line\n")));
    assertEquals(201, doc.statusCode(), doc.bodyAsString());
    ids =
        new Ids(
            ROOM,
            session.bodyAsJsonObject().getJsonObject("session").getString("id"),
            doc.bodyAsJsonObject().getString("id"),
            doc.bodyAsJsonObject().getString("revisionId"));
    fingerprint = new StateFingerprint(vertx, null);
    scope =
        new StateFingerprint.Scope(Set.of(ids.room()), Set.of(ids.session()), Set.of(ids.doc()));
    for (Terminator terminator : TERMINATORS) {
      scope =
          scope.with(
              new StateFingerprint.Scope(
                  Set.of(ids.room() + terminator.text()),
                  Set.of(ids.session() + terminator.text()),
                  Set.of(ids.doc() + terminator.text())));
    }
  }

  @AfterAll
  void stop() {
    if (server != null) {
      Await.result(server.stop());
      Await.result(vertx.close());
    }
  }

  static Stream<Arguments> cases() {
    return CASES.stream()
        .flatMap(
            entry ->
                TERMINATORS.stream()
                    .map(terminator -> Arguments.of(entry[1], entry[0], terminator)));
  }

  @ParameterizedTest(name = "{0} + {2}")
  @MethodSource("cases")
  void anIdWithALineTerminatorIsRefusedNamingTheFieldAndChangesNothing(
      Case request, String which, Terminator terminator) {
    Map<String, String> before = fingerprint.capture(scope);
    Ids bad = ids.with(which, terminator.text());
    HttpRequest<Buffer> http = server.http().request(request.method(), request.uri().apply(bad));

    HttpResponse<Buffer> response =
        Await.result(
            request.body() == null ? http.send() : http.sendJsonObject(request.body().apply(bad)));

    assertEquals(400, response.statusCode(), response.bodyAsString());
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertEquals("INVALID_REQUEST", error.getString("code"), response.bodyAsString());
    assertTrue(
        error.getString("message").contains(request.field()),
        "names " + request.field() + ": " + error.getString("message"));
    assertEquals(List.of(), StateFingerprint.changed(before, fingerprint.capture(scope)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("terminators")
  void anAckOverTheWebSocketWithALineTerminatorInItsSessionIdIsRefused(Terminator terminator) {
    WsClient socket = Await.result(WsClient.connect(vertx, server.port(), ROOM));
    Map<String, String> before = fingerprint.capture(scope);

    socket.send(
        "agent:ack",
        new JsonObject()
            .put("sessionId", ids.session() + terminator.text())
            .put("seq", 1)
            .put("clientId", socket.clientId()));

    JsonObject refusal =
        Await.result(socket.awaitTopic("error", payload -> true)).stream()
            .filter(frame -> "error".equals(frame.getString("topic")))
            .findFirst()
            .orElseThrow()
            .getJsonObject("payload");
    assertEquals("INVALID_PAYLOAD", refusal.getString("code"), refusal.encode());
    assertTrue(refusal.getString("message").contains("#/sessionId"), refusal.encode());
    assertEquals(List.of(), StateFingerprint.changed(before, fingerprint.capture(scope)));
    Await.result(socket.close());
  }

  static Stream<Terminator> terminators() {
    return TERMINATORS.stream();
  }

  @Test
  void everyTerminatorIsTried() {
    assertEquals(3 * CASES.size(), cases().count());
  }
}
