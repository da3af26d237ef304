package dev.canvasagent.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Requests;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code Idempotency-Key} with auth on: a key is the caller's (the token's subject), bound to the
 * request it was first sent with, and the ids it derives say nothing to anyone else; a session or
 * document another room holds answers exactly as one that does not exist.
 */
@ExtendWith(VertxExtension.class)
abstract class IdempotencyContract {
  Vertx vertx;
  TestServer server;
  TestTokens tokens;
  String roomId;
  String otherRoom;
  String admin;
  String alice;
  String bob;
  SseClient events;

  abstract Optional<DatabaseConfig> database();

  /** Rows of a table in the store, or -1 where the store has no tables (memory). */
  abstract long rows(String table, String where);

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server =
        TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT).withDatabase(database()));
    tokens = new TestTokens(vertx);
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    roomId = "keys-" + suffix;
    otherRoom = "keys-other-" + suffix;
    admin = tokens.admin();
    alice = tokens.token("alice", Role.EDITOR, roomId);
    bob = tokens.token("bob", Role.EDITOR, roomId);
    events =
        Await.result(
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + roomId + "/events",
                Map.of("authorization", TestTokens.bearer(admin))));
  }

  @AfterEach
  void stop() {
    Await.result(events.close());
    Await.result(server.stop());
  }

  HttpResponse<Buffer> send(
      TestServer node, HttpMethod method, String path, String token, JsonObject body, String key) {
    HttpRequest<Buffer> request =
        node.http().request(method, path).putHeader("authorization", TestTokens.bearer(token));
    if (key != null) {
      request.putHeader("Idempotency-Key", key);
    }
    return Await.result(body == null ? request.send() : request.sendJsonObject(body));
  }

  HttpResponse<Buffer> send(
      HttpMethod method, String path, String token, JsonObject body, String key) {
    return send(server, method, path, token, body, key);
  }

  HttpResponse<Buffer> run(String token, JsonObject body, String key) {
    return send(HttpMethod.POST, "/api/canvas-agent/run", token, body, key);
  }

  /** Waits for the final status of the run's request, so the run is over before the server stops. */
  void ended(String runId) {
    Await.result(
        events.awaitEvent(
            event ->
                event.event().equals("agent:status")
                    && List.of("done", "error", "canceled")
                        .contains(event.data().getString("state"))
                    && Requests.ofRequest(event.data().getJsonObject("detail"), runId)));
  }

  JsonObject resumed(String sessionId) {
    HttpResponse<Buffer> response =
        send(HttpMethod.GET, "/api/sessions/" + sessionId, admin, null, null);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  List<String> sessions(String room) {
    HttpResponse<Buffer> response =
        send(HttpMethod.GET, "/api/sessions?roomId=" + room + "&limit=100", admin, null, null);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getJsonArray("sessions").stream()
        .map(s -> ((JsonObject) s).getString("id"))
        .toList();
  }

  static void refused(HttpResponse<Buffer> response, int status, String code) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    assertEquals(
        code,
        response.bodyAsJsonObject().getJsonObject("error").getString("code"),
        response.bodyAsString());
  }

  @Test
  void aSecondEditorReusingTheFirstEditorsKeyGetsARunAndSessionOfTheirOwn() {
    JsonObject request = new JsonObject().put("roomId", roomId).put("message", "draw a box");
    HttpResponse<Buffer> first = run(alice, request, "shared-1");
    assertEquals(202, first.statusCode(), first.bodyAsString());
    ended(first.bodyAsJsonObject().getString("runId"));

    HttpResponse<Buffer> second = run(bob, request, "shared-1");

    assertEquals(202, second.statusCode(), second.bodyAsString());
    JsonObject alices = first.bodyAsJsonObject();
    JsonObject bobs = second.bodyAsJsonObject();
    assertNotEquals(alices.getString("runId"), bobs.getString("runId"), "bob's own run");
    assertNotEquals(
        alices.getString("sessionId"), bobs.getString("sessionId"), "in bob's own session");
    ended(bobs.getString("runId"));
    assertEquals(
        List.of(bobs.getString("runId")),
        resumed(bobs.getString("sessionId")).getJsonArray("runs").stream()
            .map(r -> ((JsonObject) r).getString("runId"))
            .toList(),
        "bob's run was recorded and ran");
    assertEquals(
        alices,
        run(alice, request, "shared-1").bodyAsJsonObject(),
        "alice's retry still answers her first run");
  }

  @Test
  void aSecondEditorReusingAKeyCreatesTheirOwnSessionAndUtterance() {
    JsonObject session = new JsonObject().put("roomId", roomId).put("title", "Plan");
    HttpResponse<Buffer> alices =
        send(HttpMethod.POST, "/api/sessions", alice, session, "shared-2");
    HttpResponse<Buffer> bobs = send(HttpMethod.POST, "/api/sessions", bob, session, "shared-2");

    assertEquals(201, alices.statusCode(), alices.bodyAsString());
    assertEquals(201, bobs.statusCode(), bobs.bodyAsString());
    assertNotEquals(
        alices.bodyAsJsonObject().getJsonObject("session").getString("id"),
        bobs.bodyAsJsonObject().getJsonObject("session").getString("id"));
    assertEquals(2, sessions(roomId).size());

    JsonObject said = new JsonObject().put("speaker", "ana").put("text", "make it blue");
    assertEquals(
        201,
        send(HttpMethod.POST, "/api/rooms/" + roomId + "/transcript", alice, said, "shared-3")
            .statusCode());
    assertEquals(
        201,
        send(HttpMethod.POST, "/api/rooms/" + roomId + "/transcript", bob, said, "shared-3")
            .statusCode());
    assertEquals(
        2,
        resumed(sessions(roomId).get(0)).getJsonArray("transcript").size(),
        "two people said it");
  }

  @Test
  void theSameKeyWithAnotherBodyIsRefused422AndChangesNothing() {
    JsonObject request = new JsonObject().put("roomId", roomId).put("message", "draw a box");
    HttpResponse<Buffer> first = run(alice, request, "once-1");
    assertEquals(202, first.statusCode(), first.bodyAsString());
    JsonObject accepted = first.bodyAsJsonObject();
    ended(accepted.getString("runId"));

    refused(
        run(alice, request.copy().put("message", "draw a circle"), "once-1"),
        422,
        "IDEMPOTENCY_KEY_REUSED");
    refused(
        run(alice, request.copy().put("sessionId", accepted.getString("sessionId")), "once-1"),
        422,
        "IDEMPOTENCY_KEY_REUSED");

    assertEquals(List.of(accepted.getString("sessionId")), sessions(roomId));
    assertEquals(
        1, resumed(accepted.getString("sessionId")).getJsonArray("runs").size(), "no second run");
    assertEquals(
        accepted,
        run(alice, request, "once-1").bodyAsJsonObject(),
        "the same body still answers the first run");

    JsonObject session = new JsonObject().put("roomId", roomId).put("title", "Plan");
    HttpResponse<Buffer> created = send(HttpMethod.POST, "/api/sessions", alice, session, "once-2");
    assertEquals(201, created.statusCode(), created.bodyAsString());
    refused(
        send(
            HttpMethod.POST,
            "/api/sessions",
            alice,
            session.copy().put("title", "Another plan"),
            "once-2"),
        422,
        "IDEMPOTENCY_KEY_REUSED");
    assertEquals(
        created.bodyAsJsonObject(),
        send(HttpMethod.POST, "/api/sessions", alice, session, "once-2").bodyAsJsonObject());
    assertEquals(2, sessions(roomId).size());
    assertEquals(
        "Plan",
        resumed(created.bodyAsJsonObject().getJsonObject("session").getString("id"))
            .getJsonObject("session")
            .getString("title"));

    JsonObject said = new JsonObject().put("speaker", "ana").put("text", "make it blue");
    String transcript = "/api/rooms/" + roomId + "/transcript";
    HttpResponse<Buffer> utterance = send(HttpMethod.POST, transcript, alice, said, "once-3");
    assertEquals(201, utterance.statusCode(), utterance.bodyAsString());
    refused(
        send(HttpMethod.POST, transcript, alice, said.copy().put("text", "make it red"), "once-3"),
        422,
        "IDEMPOTENCY_KEY_REUSED");
    assertEquals(
        utterance.bodyAsJsonObject(),
        send(HttpMethod.POST, transcript, alice, said, "once-3").bodyAsJsonObject());
    assertEquals(
        List.of("make it blue"),
        resumed(accepted.getString("sessionId")).getJsonArray("transcript").stream()
            .map(u -> ((JsonObject) u).getString("text"))
            .toList());
    long stored = rows("canvas_transcripts", "room_id = '" + roomId + "'");
    assertTrue(stored == -1 || stored == 1, stored + " utterances stored");
  }

  @Test
  void aDerivedIdIsNotAVersion3UuidOfTheRoomAndKey() {
    HttpResponse<Buffer> accepted =
        run(
            alice,
            new JsonObject().put("roomId", roomId).put("message", "draw a box"),
            "derived-1");
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    HttpResponse<Buffer> created =
        send(
            HttpMethod.POST,
            "/api/sessions",
            alice,
            new JsonObject().put("roomId", roomId),
            "derived-2");
    assertEquals(201, created.statusCode(), created.bodyAsString());
    ended(accepted.bodyAsJsonObject().getString("runId"));

    Map<String, String> derived =
        Map.of(
            "run", accepted.bodyAsJsonObject().getString("runId"),
            "run-session", accepted.bodyAsJsonObject().getString("sessionId"),
            "session", created.bodyAsJsonObject().getJsonObject("session").getString("id"));
    Map<String, String> keys =
        Map.of("run", "derived-1", "run-session", "derived-1", "session", "derived-2");
    derived.forEach(
        (kind, id) -> {
          String guessable =
              UUID.nameUUIDFromBytes(
                      (kind + "\n" + roomId + "\n" + keys.get(kind))
                          .getBytes(StandardCharsets.UTF_8))
                  .toString();
          assertNotEquals(
              guessable, id, kind + " id is the UUID v3 of room and key: anyone can compute it");
          assertNotEquals(3, UUID.fromString(id).version(), kind + " " + id);
        });
  }

  /**
   * Each lookup route, as one who may use the route in their own room asks it of another room's
   * session or document and of an id nobody has: the two answers are the same, the id aside.
   */
  @Test
  void anotherRoomsSessionOrDocumentAnswersExactlyAsAnAbsentOne() {
    HttpResponse<Buffer> theirs =
        send(
            HttpMethod.POST,
            "/api/sessions",
            admin,
            new JsonObject().put("roomId", otherRoom),
            null);
    assertEquals(201, theirs.statusCode(), theirs.bodyAsString());
    String session = theirs.bodyAsJsonObject().getJsonObject("session").getString("id");
    HttpResponse<Buffer> doc =
        send(
            HttpMethod.POST,
            "/api/docs",
            admin,
            new JsonObject().put("roomId", otherRoom).put("content", "notes\n"),
            null);
    assertEquals(201, doc.statusCode(), doc.bodyAsString());
    String docId = doc.bodyAsJsonObject().getString("id");
    String revision = doc.bodyAsJsonObject().getString("revisionId");
    String absentSession = UUID.randomUUID().toString();
    String absentDoc = "doc-" + UUID.randomUUID();

    List<java.util.function.Function<String, Lookup>> sessionRoutes =
        List.of(
            id -> new Lookup(HttpMethod.GET, "/api/sessions/" + id, null),
            id -> new Lookup(HttpMethod.GET, "/api/sessions/" + id + "?roomId=" + roomId, null),
            id ->
                new Lookup(
                    HttpMethod.PATCH, "/api/sessions/" + id, new JsonObject().put("title", "mine")),
            id -> new Lookup(HttpMethod.DELETE, "/api/sessions/" + id, null),
            id -> new Lookup(HttpMethod.GET, "/api/sessions/" + id + "/todos", null),
            id ->
                new Lookup(
                    HttpMethod.POST,
                    "/api/canvas-agent/cancel",
                    new JsonObject().put("sessionId", id)),
            id ->
                new Lookup(
                    HttpMethod.POST,
                    "/api/canvas-agent/run",
                    new JsonObject()
                        .put("roomId", roomId)
                        .put("sessionId", id)
                        .put("message", "draw a box")));
    List<java.util.function.Function<String, Lookup>> docRoutes =
        List.of(
            id -> new Lookup(HttpMethod.GET, "/api/docs/" + id, null),
            id -> new Lookup(HttpMethod.GET, "/api/docs/" + id + "/revisions", null),
            id ->
                new Lookup(
                    HttpMethod.PUT,
                    "/api/docs/" + id,
                    new JsonObject().put("content", "mine\n").put("baseRevisionId", revision)),
            id -> new Lookup(HttpMethod.POST, "/api/docs/" + id + "/lease/preempt", null),
            id ->
                new Lookup(
                    HttpMethod.POST,
                    "/api/docs/" + id + "/tools/canvas_check_out",
                    new JsonObject().put("holder", "me")),
            id ->
                new Lookup(
                    HttpMethod.POST,
                    "/api/docs/" + id + "/agent",
                    new JsonObject()
                        .put("instruction", "/doc-fix notes => mine")
                        .put("model", "debug/fake")),
            id ->
                new Lookup(
                    HttpMethod.POST,
                    "/api/canvas-agent/edit-request",
                    new JsonObject()
                        .put("canvas_session_id", id)
                        .put("instruction", "/doc-fix notes => mine")
                        .put("model", "debug/fake")));

    List<String> callers =
        List.of(
            alice,
            tokens.viewer(roomId),
            tokens.forDocuments(Role.EDITOR, "doc-" + UUID.randomUUID()));
    List<String> compared = new ArrayList<>();
    for (String caller : callers) {
      for (var route : sessionRoutes) {
        compared.add(
            sameAnswer(
                caller, route.apply(session), route.apply(absentSession), session, absentSession));
      }
      for (var route : docRoutes) {
        compared.add(
            sameAnswer(caller, route.apply(docId), route.apply(absentDoc), docId, absentDoc));
      }
    }
    assertTrue(
        compared.contains("404 SESSION_NOT_FOUND") && compared.contains("404 NOT_FOUND"),
        "what was compared: " + compared);
    assertEquals(List.of(session), sessions(otherRoom), "nothing happened to it");
    assertEquals(
        "notes\n",
        send(HttpMethod.GET, "/api/docs/" + docId, admin, null, null)
            .bodyAsJsonObject()
            .getString("content"));
  }

  /** One request a lookup route is asked. */
  record Lookup(HttpMethod method, String path, JsonObject body) {}

  /** Asks both; asserts status, code and message (the id replaced) are the same; answers {@code "<status> <code>"}. */
  private String sameAnswer(
      String caller, Lookup existing, Lookup absent, String existingId, String absentId) {
    HttpResponse<Buffer> there = ask(caller, existing);
    HttpResponse<Buffer> nowhere = ask(caller, absent);
    String what =
        existing + " vs " + absent + ": " + there.bodyAsString() + " / " + nowhere.bodyAsString();
    assertEquals(nowhere.statusCode(), there.statusCode(), what);
    JsonObject seen = there.bodyAsJsonObject().getJsonObject("error");
    JsonObject missing = nowhere.bodyAsJsonObject().getJsonObject("error");
    assertEquals(missing.getString("code"), seen.getString("code"), what);
    assertEquals(
        missing.getString("message").replace(absentId, "{id}"),
        seen.getString("message").replace(existingId, "{id}"),
        what);
    return there.statusCode() + " " + seen.getString("code");
  }

  private HttpResponse<Buffer> ask(String caller, Lookup lookup) {
    return send(lookup.method(), lookup.path(), caller, lookup.body(), null);
  }
}
