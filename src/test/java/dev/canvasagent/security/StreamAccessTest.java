package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The two streams a browser opens, {@code /api/rooms/{id}/events} (SSE) and {@code /api/rooms/{id}/ws}:
 * the token goes in {@code Authorization} or, as browsers must for these, in {@code ?access_token=};
 * a missing, expired or other room's token is refused before the stream opens or the upgrade happens.
 * A viewer's WebSocket listens but every frame it sends is refused FORBIDDEN and changes nothing, and a
 * viewer never hosts. A stream ends when its token does.
 */
@ExtendWith(VertxExtension.class)
class StreamAccessTest {
  Vertx vertx;
  TestServer server;
  TestTokens tokens;
  String roomId;
  final List<SseClient> streams = new ArrayList<>();
  final List<WsClient> sockets = new ArrayList<>();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
    roomId = "streams-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    streams.forEach(stream -> stream.close());
    sockets.forEach(socket -> socket.close());
    Await.result(server.stop());
  }

  static Map<String, String> bearer(String token) {
    return Map.of("authorization", TestTokens.bearer(token));
  }

  SseClient events(String query, Map<String, String> headers) {
    SseClient stream =
        Await.result(
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + roomId + "/events" + (query == null ? "" : "?" + query),
                headers));
    streams.add(stream);
    return stream;
  }

  WsClient socket(String query, Map<String, String> headers) {
    WsClient socket = Await.result(WsClient.connect(vertx, server.port(), roomId, query, headers));
    sockets.add(socket);
    return socket;
  }

  String run() {
    HttpResponse<Buffer> run =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("authorization", TestTokens.bearer(tokens.editor(roomId)))
                .sendJsonObject(
                    new JsonObject()
                        .put("roomId", roomId)
                        .put("message", "a box for the roadmap")));
    assertEquals(202, run.statusCode(), run.bodyAsString());
    return run.bodyAsJsonObject().getString("sessionId");
  }

  static boolean ended(JsonObject status, String sessionId) {
    return sessionId.equals(status.getString("sessionId"))
        && Set.of("done", "error", "canceled").contains(status.getString("state"));
  }

  JsonObject board() {
    HttpResponse<Buffer> board =
        Await.result(
            server
                .http()
                .get("/api/rooms/" + roomId + "/board")
                .putHeader("authorization", TestTokens.bearer(tokens.admin()))
                .send());
    assertEquals(200, board.statusCode(), board.bodyAsString());
    return board.bodyAsJsonObject();
  }

  @Test
  void bothStreamsTakeTheTokenInTheHeaderOrTheQueryAndCarryTheRoom() {
    WsClient host = socket(null, bearer(tokens.editor(roomId))).autoAck();
    WsClient byQuery = socket("access_token=" + tokens.viewer(roomId), Map.of());
    SseClient sseByHeader = events(null, bearer(tokens.viewer(roomId)));
    SseClient sseByQuery = events("access_token=" + tokens.viewer(roomId), Map.of());

    String sessionId = run();
    for (SseClient stream : List.of(sseByHeader, sseByQuery)) {
      Await.result(
          stream.awaitEvent(
              event -> "agent:status".equals(event.event()) && ended(event.data(), sessionId)));
    }
    for (WsClient socket : List.of(host, byQuery)) {
      JsonObject done =
          Await.result(socket.awaitTopic("agent:status", status -> ended(status, sessionId)))
              .stream()
              .filter(
                  frame ->
                      "agent:status".equals(frame.getString("topic"))
                          && ended(frame.getJsonObject("payload"), sessionId))
              .findFirst()
              .orElseThrow()
              .getJsonObject("payload");
      assertEquals("done", done.getString("state"), done.encode());
    }
    assertEquals(
        3,
        byQuery.received().stream()
            .filter(frame -> "agent:action".equals(frame.getString("topic")))
            .count(),
        "a viewer's WebSocket hears every envelope");
  }

  @Test
  void noExpiredOrAnotherRoomsTokenIsRefusedBeforeTheStreamOpens() {
    record Attempt(
        String name, String query, Map<String, String> headers, int status, String code) {}
    String editor = tokens.editor(roomId);
    List<Attempt> attempts =
        List.of(
            new Attempt("no token", null, Map.of(), 401, "UNAUTHENTICATED"),
            new Attempt(
                "an expired header", null, bearer(tokens.expired(roomId)), 401, "TOKEN_EXPIRED"),
            new Attempt(
                "an expired access_token",
                "access_token=" + tokens.expired(roomId),
                Map.of(),
                401,
                "TOKEN_EXPIRED"),
            new Attempt(
                "a forged access_token",
                "access_token=" + editor.substring(0, editor.length() - 2),
                Map.of(),
                401,
                "UNAUTHENTICATED"),
            new Attempt(
                "a header and an access_token",
                "access_token=" + editor,
                bearer(editor),
                401,
                "UNAUTHENTICATED"),
            new Attempt(
                "two access_tokens",
                "access_token=" + editor + "&access_token=" + editor,
                Map.of(),
                401,
                "UNAUTHENTICATED"),
            new Attempt(
                "another room's header",
                null,
                bearer(tokens.editor("elsewhere")),
                403,
                "FORBIDDEN"),
            new Attempt(
                "another room's access_token",
                "access_token=" + tokens.viewer("elsewhere"),
                Map.of(),
                403,
                "FORBIDDEN"),
            new Attempt(
                "a document's token",
                "access_token=" + tokens.forDocuments(Role.EDITOR, "doc-1"),
                Map.of(),
                403,
                "FORBIDDEN"));
    for (Attempt attempt : attempts) {
      Throwable sse =
          Await.failure(
              SseClient.connect(
                  vertx,
                  server.port(),
                  "/api/rooms/"
                      + roomId
                      + "/events"
                      + (attempt.query() == null ? "" : "?" + attempt.query()),
                  attempt.headers()));
      assertTrue(
          sse.getMessage().startsWith("SSE answered " + attempt.status())
              && sse.getMessage().contains(attempt.code()),
          "events with " + attempt.name() + ": " + sse.getMessage());
      Throwable ws =
          Await.failure(
              WsClient.connect(vertx, server.port(), roomId, attempt.query(), attempt.headers()));
      assertTrue(ws instanceof UpgradeRejectedException, "ws with " + attempt.name() + ": " + ws);
      assertEquals(
          attempt.status(),
          ((UpgradeRejectedException) ws).getStatus(),
          "ws with " + attempt.name());
    }
    // Nobody got in: the room has no one to ask for a screenshot, and its board is untouched.
    assertEquals(FailureCode.NO_HOST, captureFailure());
    assertEquals(0L, board().getLong("revision"));
  }

  @Test
  void aViewersWebSocketMayListenButEveryFrameItSendsIsRefusedAndChangesNothing() {
    WsClient viewer = socket(null, bearer(tokens.viewer(roomId)));
    String viewerId = viewer.clientId();
    List<JsonObject> screenshots = new ArrayList<>();
    MessageConsumer<JsonObject> published =
        vertx
            .eventBus()
            .consumer(
                "room." + roomId + ".agent:screenshot", message -> screenshots.add(message.body()));
    Await.result(published.completion());
    JsonObject before = board();

    JsonObject box = new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 10);
    List<JsonObject> frames =
        List.of(
            new JsonObject()
                .put("topic", "agent:ack")
                .put(
                    "payload",
                    new JsonObject()
                        .put("type", "agent:ack")
                        .put("sessionId", "s")
                        .put("seq", 1)
                        .put("clientId", viewerId)),
            new JsonObject()
                .put("topic", "agent:screenshot")
                .put(
                    "payload",
                    new JsonObject()
                        .put("type", "agent:screenshot")
                        .put("requestId", "r-1")
                        .put(
                            "image",
                            new JsonObject()
                                .put("mime", "image/png")
                                .put("dataUrl", "data:image/png;base64,iVBORw0KGgo=")
                                .put("bytes", 8))
                        .put("bounds", box)
                        .put("viewport", box)
                        .put("selection", new JsonArray())
                        .put("docVersion", "0")),
            new JsonObject()
                .put("topic", "canvas:viewport")
                .put("payload", new JsonObject().put("bounds", box)),
            new JsonObject()
                .put("topic", "canvas:change")
                .put(
                    "payload",
                    new JsonObject()
                        .put("baseRevision", before.getLong("revision"))
                        .put(
                            "put",
                            new JsonArray().add(TestShapes.geo("viewer-box", 0, 0, 50, 50)))));
    for (int i = 0; i < frames.size(); i++) {
      viewer.sendText(frames.get(i).encode());
      int refusals = i + 1;
      List<JsonObject> errors =
          Await.result(
                  viewer.awaitFrame(
                      frame ->
                          viewer.received().stream()
                                  .filter(received -> "error".equals(received.getString("topic")))
                                  .count()
                              >= refusals))
              .stream()
              .filter(frame -> "error".equals(frame.getString("topic")))
              .toList();
      assertEquals(
          "FORBIDDEN",
          errors.get(i).getJsonObject("payload").getString("code"),
          frames.get(i).getString("topic") + ": " + errors);
    }

    assertEquals(before, board(), "the viewer's change was not applied");
    JsonObject viewports =
        Await.result(
                vertx
                    .eventBus()
                    .<JsonObject>request(
                        Address.BRIDGE_VIEWPORTS.address(), new JsonObject().put("roomId", roomId)))
            .body();
    assertEquals(new JsonArray(), viewports.getJsonArray("viewports"), "nor its viewport kept");
    assertEquals(List.of(), screenshots, "nor its screenshot passed on");
    Await.result(published.unregister());
  }

  @Test
  void aViewerNeverHostsEvenAloneInTheRoom() {
    WsClient viewer = socket(null, bearer(tokens.viewer(roomId)));
    JsonObject hello = viewer.received().get(0).getJsonObject("payload");
    assertNull(hello.getString("hostClientId"), "a room with only a viewer has no host");
    events(null, bearer(tokens.editor(roomId)));
    assertEquals(
        FailureCode.NO_HOST, captureFailure(), "nor does an event stream host, whatever its token");

    WsClient editor = socket(null, bearer(tokens.editor(roomId)));
    String editorId = editor.clientId();
    Await.result(
        viewer.awaitTopic(
            "canvas:host", payload -> editorId.equals(payload.getString("hostClientId"))));
    Await.result(editor.close());
    sockets.remove(editor);
    // The host left; the viewer is still there, and still does not host.
    Await.result(
        Eventually.holds(
            vertx, () -> Future.succeededFuture(captureFailure() == FailureCode.NO_HOST)));
    assertNotEquals(viewer.clientId(), editorId);
    assertTrue(
        viewer.received().stream()
            .filter(frame -> "canvas:host".equals(frame.getString("topic")))
            .noneMatch(
                frame ->
                    viewer
                        .clientId()
                        .equals(frame.getJsonObject("payload").getString("hostClientId"))));
  }

  @Test
  void aStreamEndsWhenItsTokenExpires() {
    String brief = tokens.lasting(Duration.ofSeconds(2), Role.EDITOR, roomId);
    SseClient stream = events("access_token=" + brief, Map.of());
    WsClient socket = socket(null, bearer(brief));
    WsClient lasting = socket(null, bearer(tokens.editor(roomId)));

    Await.result(stream.ended());
    assertEquals(
        (short) 1001,
        Await.result(socket.closed()),
        "going away: the client reconnects with a new token");
    // A connection with a token that lasts is not disturbed.
    String sessionId = run();
    Await.result(lasting.autoAck().awaitTopic("agent:status", status -> ended(status, sessionId)));
  }

  /** How a screenshot request for the room fails. */
  FailureCode captureFailure() {
    Throwable failure =
        Await.failure(
            vertx
                .eventBus()
                .request(
                    Address.SCREENSHOT_CAPTURE.address(),
                    new JsonObject().put("roomId", roomId).put("sessionId", "s")));
    return FailureCode.fromWire(((ReplyException) failure).failureCode()).orElseThrow();
  }
}
