package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /api/admin/rooms/:roomId} and {@code GET /api/admin/sessions/:sessionId} on a real server
 * with auth on and PostgreSQL: two event streams and a WebSocket in a room, a slow run running, a
 * document under lease; the views count the connections by transport, name the host, the stream's
 * position, the board's revisions, the running run and the lease, and after a cancel the session's last
 * run. Only an admin's token reads them; bad ids are refused, unknown ones answered 404, and none of it
 * changes anything.
 */
@ExtendWith(VertxExtension.class)
class AdminViewsTest {
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  TestTokens tokens;
  String admin;
  String roomId;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    database = TestDatabase.freshSchema();
    Map<String, String> environment = new HashMap<>(TestTokens.ENVIRONMENT);
    // Slow enough that the run is still streaming when the views are read; it is canceled after.
    environment.put("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "100");
    server =
        TestServer.start(vertx, TestServer.config(environment).withDatabase(Optional.of(database)));
    tokens = new TestTokens(vertx);
    admin = tokens.admin();
    roomId = "admin-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
    TestDatabase.drop(database);
  }

  HttpResponse<Buffer> get(String path, String token) {
    HttpRequest<Buffer> request = server.http().get(path);
    if (token != null) {
      request.putHeader("authorization", TestTokens.bearer(token));
    }
    return Await.result(request.send());
  }

  HttpResponse<Buffer> post(String path, String token, JsonObject body) {
    return Await.result(
        server
            .http()
            .post(path)
            .putHeader("authorization", TestTokens.bearer(token))
            .sendJsonObject(body));
  }

  JsonObject view(String path) {
    HttpResponse<Buffer> response = get(path, admin);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  static void refused(HttpResponse<Buffer> response, int status, String code) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    assertEquals(
        code,
        response.bodyAsJsonObject().getJsonObject("error").getString("code"),
        response.bodyAsString());
  }

  @Test
  void theViewsShowTheRoomsConnectionsRunsBoardAndLeasesAndTheSessionsQueue() {
    String editor = tokens.editor(roomId);
    Map<String, String> authorization = Map.of("authorization", TestTokens.bearer(editor));
    String events = "/api/rooms/" + roomId + "/events";
    SseClient first = Await.result(SseClient.connect(vertx, server.port(), events, authorization));
    SseClient second = Await.result(SseClient.connect(vertx, server.port(), events, authorization));
    WsClient host =
        Await.result(WsClient.connect(vertx, server.port(), roomId, null, authorization)).autoAck();

    HttpResponse<Buffer> created =
        post("/api/docs", editor, new JsonObject().put("roomId", roomId).put("content", "notes\n"));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String docId = created.bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> checkedOut =
        post("/api/docs/" + docId + "/tools/canvas_check_out", editor, new JsonObject());
    assertEquals(200, checkedOut.statusCode(), checkedOut.bodyAsString());

    HttpResponse<Buffer> accepted =
        post(
            "/api/canvas-agent/run",
            editor,
            new JsonObject().put("roomId", roomId).put("message", "/two-passes"));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    String runId = accepted.bodyAsJsonObject().getString("runId");
    List<SseClient.SseEvent> seen =
        Await.result(
            first.awaitEvent(
                event ->
                    "agent:status".equals(event.event())
                        && "streaming".equals(event.data().getString("state"))));
    String seenId =
        seen.stream()
            .map(SseClient.SseEvent::id)
            .filter(id -> id != null)
            .reduce((earlier, later) -> later)
            .orElseThrow();

    JsonObject room = view("/api/admin/rooms/" + roomId);
    assertEquals(roomId, room.getString("roomId"));
    assertEquals(server.cluster().nodeId(), room.getString("nodeId"));
    JsonObject connections = room.getJsonObject("connections");
    assertEquals(3, connections.getInteger("total"), room.encode());
    assertEquals(2, connections.getInteger("sse"), room.encode());
    assertEquals(1, connections.getInteger("websocket"), room.encode());
    assertEquals(0, connections.getInteger("sockjs"), room.encode());
    // Event streams cannot answer the server: the WebSocket is the host.
    assertEquals(host.clientId(), room.getJsonObject("host").getString("clientId"));
    JsonObject replay = room.getJsonObject("replay");
    String incarnation = seenId.substring(0, seenId.lastIndexOf('-'));
    long seenNumber = Long.parseLong(seenId.substring(seenId.lastIndexOf('-') + 1));
    assertEquals(incarnation, replay.getString("incarnation"));
    assertTrue(replay.getLong("position") >= seenNumber, room.encode());
    assertTrue(replay.getInteger("held") >= 1, room.encode());
    assertEquals(1000, replay.getInteger("capacity"));
    JsonObject runs = room.getJsonObject("runs");
    assertEquals(1, runs.getJsonArray("running").size(), room.encode());
    JsonObject running = runs.getJsonArray("running").getJsonObject(0);
    assertEquals(runId, running.getString("runId"));
    assertEquals(sessionId, running.getString("sessionId"));
    assertEquals("running", running.getString("state"));
    assertTrue(running.getLong("startedAt") > 0);
    assertEquals(0, runs.getInteger("queued"));
    assertEquals(1, room.getJsonArray("documents").size(), room.encode());
    JsonObject document = room.getJsonArray("documents").getJsonObject(0);
    assertEquals(docId, document.getString("docId"));
    assertTrue(document.getJsonObject("lease").getBoolean("held"), room.encode());
    assertTrue(document.getJsonObject("lease").getString("holder") != null, room.encode());
    assertTrue(room.getJsonObject("board").containsKey("cachedRevision"), room.encode());

    JsonObject session = view("/api/admin/sessions/" + sessionId);
    assertEquals(sessionId, session.getString("sessionId"));
    assertEquals(roomId, session.getString("roomId"));
    assertEquals(server.cluster().nodeId(), session.getString("ownerNode"));
    assertEquals(0, session.getJsonObject("queue").getInteger("length"));
    assertEquals(List.of(), session.getJsonObject("queue").getJsonArray("runIds").getList());
    assertEquals(runId, session.getJsonObject("running").getString("runId"));
    assertEquals("running", session.getJsonObject("running").getString("state"));
    assertNull(session.getValue("lastRun"), session.encode());
    // A person holds the document's lease, not this session's agent.
    assertNull(session.getValue("lease"), session.encode());

    // The cancel is answered once the run has ended.
    HttpResponse<Buffer> canceled =
        post("/api/canvas-agent/cancel", editor, new JsonObject().put("sessionId", sessionId));
    assertEquals(200, canceled.statusCode(), canceled.bodyAsString());
    session = view("/api/admin/sessions/" + sessionId);
    assertNull(session.getValue("running"), session.encode());
    JsonObject lastRun = session.getJsonObject("lastRun");
    // The run, or one of the follow-ups it had been granted (recorded after it), canceled with it.
    assertTrue(lastRun.getString("runId") != null, lastRun.encode());
    assertEquals("canceled", lastRun.getString("state"));
    assertEquals("CANCELED", lastRun.getString("code"));
    assertTrue(lastRun.getLong("endedAt") >= lastRun.getLong("createdAt"), lastRun.encode());

    room = view("/api/admin/rooms/" + roomId);
    assertEquals(0, room.getJsonObject("runs").getJsonArray("running").size(), room.encode());
    long revision =
        get("/api/rooms/" + roomId + "/board", editor).bodyAsJsonObject().getLong("revision");
    JsonObject board = room.getJsonObject("board");
    assertEquals(revision, board.getLong("storedRevision"), room.encode());
    // The run read and wrote the board through the patch engine, which holds it at that revision.
    assertEquals(revision, board.getLong("cachedRevision"), room.encode());

    Await.result(first.close());
    Await.result(second.close());
    Await.result(host.close());
  }

  @Test
  void onlyAnAdminReadsTheViewsAndBadOrUnknownIdsAreRefused() {
    HttpResponse<Buffer> accepted =
        post(
            "/api/canvas-agent/run",
            admin,
            new JsonObject().put("roomId", roomId).put("message", "draw a box"));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    for (String path : List.of("/api/admin/rooms/" + roomId, "/api/admin/sessions/" + sessionId)) {
      refused(get(path, null), 401, "UNAUTHENTICATED");
      refused(get(path, tokens.viewer(roomId)), 403, "FORBIDDEN");
      refused(get(path, tokens.editor(roomId)), 403, "FORBIDDEN");
      assertEquals(200, get(path, admin).statusCode(), path);
    }
    // An unknown room: nothing on this node knows it, and asking loads nothing.
    String unknown = "/api/admin/rooms/nobody-" + UUID.randomUUID().toString().substring(0, 8);
    refused(get(unknown, admin), 404, "NOT_FOUND");
    refused(get(unknown, admin), 404, "NOT_FOUND");
    refused(get("/api/admin/sessions/no-such-session", admin), 404, "SESSION_NOT_FOUND");
    refused(get("/api/admin/rooms/bad%20room", admin), 400, "INVALID_REQUEST");
    refused(get("/api/admin/sessions/bad%20id", admin), 400, "INVALID_REQUEST");
    // A non-admin learns nothing of ids either.
    refused(get("/api/admin/sessions/bad%20id", tokens.editor(roomId)), 403, "FORBIDDEN");
  }

  /** With auth off (loopback only), every caller holds the open grant, an admin's, as on the rest of /api. */
  @Test
  void withAuthOffALoopbackCallerReadsTheViews() {
    TestServer open = TestServer.start(vertx, TestServer.config(Map.of()));
    try {
      HttpResponse<Buffer> accepted =
          open.postRun(new JsonObject().put("roomId", roomId).put("message", "draw a box"));
      assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
      assertEquals(200, open.get("/api/admin/rooms/" + roomId).statusCode());
      String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
      assertEquals(200, open.get("/api/admin/sessions/" + sessionId).statusCode());
    } finally {
      Await.result(open.stop());
    }
  }
}
