package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each edge limit, set low: over it an HTTP request gets 429 with {@code Retry-After} and {@code
 * RATE_LIMITED} naming the limit, a message or connection an error naming it, and nothing else
 * changes. Auth is off (one client, 127.0.0.1) unless a test needs two clients.
 */
@ExtendWith(VertxExtension.class)
class EdgeLimitsTest {
  Vertx vertx;
  TestServer server;
  String roomId;
  final List<AutoCloseable> toClose = new ArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    roomId = "limits-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable closeable : toClose) {
      closeable.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
  }

  void start(Map<String, String> environment) {
    server = TestServer.start(vertx, TestServer.config(environment));
  }

  HttpResponse<Buffer> run(String room, String token) {
    return run(new JsonObject().put("roomId", room).put("message", "draw a box"), token);
  }

  HttpResponse<Buffer> run(JsonObject body, String token) {
    HttpRequest<Buffer> request =
        server.http().post("/api/canvas-agent/run").putHeader("content-type", "application/json");
    if (token != null) {
      request.putHeader("authorization", TestTokens.bearer(token));
    }
    return Await.result(request.sendJsonObject(body));
  }

  int sessions(String room) {
    HttpResponse<Buffer> list = server.get("/api/sessions?roomId=" + room + "&limit=100");
    assertEquals(200, list.statusCode(), list.bodyAsString());
    return list.bodyAsJsonObject().getJsonArray("sessions").size();
  }

  /** 429, {@code Retry-After} in whole seconds from 1 to {@code maxSeconds}, RATE_LIMITED naming {@code setting}. */
  static void assertLimited(HttpResponse<Buffer> response, String setting, long maxSeconds) {
    assertEquals(429, response.statusCode(), response.bodyAsString());
    long retryAfter = Long.parseLong(response.getHeader("Retry-After"));
    assertTrue(retryAfter >= 1 && retryAfter <= maxSeconds, "Retry-After " + retryAfter);
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(false, body.getBoolean("ok"));
    assertEquals("RATE_LIMITED", body.getJsonObject("error").getString("code"));
    assertTrue(body.getJsonObject("error").getString("message").contains(setting), body.encode());
  }

  @Test
  void aClientsRunsAMinuteAreLimitedAndARefusedRunStartsNothing() {
    start(Map.of("CANVAS_AGENT_RUNS_PER_MINUTE", "2"));
    assertEquals(202, run(roomId, null).statusCode());
    assertEquals(202, run(roomId, null).statusCode());
    assertEquals(2, sessions(roomId));
    assertLimited(run(roomId, null), "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
    assertLimited(run("elsewhere", null), "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
    assertEquals(2, sessions(roomId), "the refused run made no session");
    assertEquals(0, sessions("elsewhere"));
  }

  @Test
  void aRunRefusedBeforeItStartsDoesNotCount() {
    start(Map.of("CANVAS_AGENT_RUNS_PER_MINUTE", "1"));
    HttpResponse<Buffer> unknown =
        run(
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "hi")
                .put("sessionId", "no-such-session"),
            null);
    assertEquals(404, unknown.statusCode(), unknown.bodyAsString());
    String docId =
        post("/api/docs", new JsonObject().put("roomId", roomId).put("content", "a line\n"))
            .bodyAsJsonObject()
            .getString("id");
    HttpResponse<Buffer> noModel =
        post(
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "x").put("model", "nobody:model"));
    assertEquals(400, noModel.statusCode(), noModel.bodyAsString());
    assertEquals(202, run(roomId, null).statusCode());
    assertLimited(run(roomId, null), "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
  }

  @Test
  void aRoomsRunsAMinuteAreLimitedWhoeverStartsThem() {
    start(
        new HashMap<>(
            Map.of(
                "CANVAS_AGENT_RUNS_PER_MINUTE",
                "2",
                "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE",
                "3",
                "CANVAS_AGENT_JWT_SECRET",
                TestTokens.SECRET)));
    TestTokens tokens = new TestTokens(vertx);
    String alice = tokens.token("alice", Role.EDITOR, roomId, "other");
    String bob = tokens.token("bob", Role.EDITOR, roomId, "other");
    assertEquals(202, run(roomId, alice).statusCode());
    assertEquals(202, run(roomId, alice).statusCode());
    assertEquals(202, run(roomId, bob).statusCode());
    assertLimited(run(roomId, bob), "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", 60);
    assertEquals(
        202, run("other", bob).statusCode(), "bob's refused run did not count against him");
    assertLimited(run("other", bob), "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
  }

  @Test
  void theDocumentAgentAndADelegatedEditCountAsRuns() {
    start(Map.of("CANVAS_AGENT_RUNS_PER_MINUTE", "2"));
    HttpResponse<Buffer> created =
        post(
            "/api/docs",
            new JsonObject().put("roomId", roomId).put("content", "teh line\nfoo line\n"));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String docId = created.bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> edit =
        post(
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", docId)
                .put("instruction", "/doc-fix foo => bar")
                .put("model", "debug/fake"));
    assertEquals(200, edit.statusCode(), edit.bodyAsString());
    HttpResponse<Buffer> agent =
        post(
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "/doc-fix teh => the"));
    assertEquals(202, agent.statusCode(), agent.bodyAsString());
    assertLimited(
        post(
            "/api/docs/" + docId + "/agent",
            new JsonObject().put("instruction", "/doc-fix a => b")),
        "CANVAS_AGENT_RUNS_PER_MINUTE",
        60);
    assertLimited(run(roomId, null), "CANVAS_AGENT_RUNS_PER_MINUTE", 60);
  }

  HttpResponse<Buffer> post(String path, JsonObject body) {
    return Await.result(
        server
            .http()
            .post(path)
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }

  @Test
  void aClientsRequestsASecondAreLimitedButNotTheHealthProbe() {
    start(Map.of("CANVAS_AGENT_REQUESTS_PER_SECOND", "1"));
    // Sent together, so far more of them arrive within a second than the one allowed.
    List<Future<HttpResponse<Buffer>>> burst =
        IntStream.range(0, 20)
            .mapToObj(i -> server.http().get("/api/rooms/" + roomId + "/board").send())
            .toList();
    Await.result(Future.join(burst));
    List<HttpResponse<Buffer>> limited =
        burst.stream()
            .map(Future::result)
            .filter(response -> response.statusCode() != 200)
            .toList();
    assertTrue(!limited.isEmpty() && limited.size() < 20, limited.size() + " of 20 refused");
    limited.forEach(response -> assertLimited(response, "CANVAS_AGENT_REQUESTS_PER_SECOND", 1));
    assertEquals(200, server.get("/health").statusCode());
  }

  @Test
  void anAddressWhoseTokensAreRefusedIsLimitedWithoutATokenToCountAgainst() {
    start(
        Map.of(
            "CANVAS_AGENT_REQUESTS_PER_SECOND", "1", "CANVAS_AGENT_JWT_SECRET", TestTokens.SECRET));
    List<Future<HttpResponse<Buffer>>> burst =
        IntStream.range(0, 20)
            .mapToObj(
                i ->
                    server
                        .http()
                        .get("/api/rooms/" + roomId + "/board")
                        .putHeader("authorization", "Bearer not-a-token")
                        .send())
            .toList();
    Await.result(Future.join(burst));
    List<HttpResponse<Buffer>> answers = burst.stream().map(Future::result).toList();
    List<HttpResponse<Buffer>> limited =
        answers.stream().filter(response -> response.statusCode() == 429).toList();
    assertTrue(
        !limited.isEmpty() && answers.stream().anyMatch(response -> response.statusCode() == 401),
        limited.size() + " of 20 refused 429, the rest 401");
    assertTrue(
        answers.stream()
            .allMatch(response -> response.statusCode() == 401 || response.statusCode() == 429));
    limited.forEach(response -> assertLimited(response, "refused 401", 1));
    assertEquals(200, server.get("/health").statusCode());
  }

  @Test
  void anAddressHasSoManyOpenConnectionsOnEveryTransport() {
    start(Map.of("CANVAS_AGENT_CONNECTIONS_PER_ADDRESS", "2"));
    SseClient first = server.events(roomId);
    WsClient second = Await.result(WsClient.connect(vertx, server.port(), roomId));

    Throwable sse =
        Await.failure(SseClient.connect(vertx, server.port(), "/api/rooms/" + roomId + "/events"));
    assertTrue(
        sse.getMessage().contains("429")
            && sse.getMessage().contains("CANVAS_AGENT_CONNECTIONS_PER_ADDRESS"),
        sse.getMessage());
    Throwable ws =
        Await.failure(
            vertx
                .createWebSocketClient()
                .connect(
                    new WebSocketConnectOptions()
                        .setHost("127.0.0.1")
                        .setPort(server.port())
                        .setURI("/api/rooms/" + roomId + "/ws")));
    assertEquals(429, ((UpgradeRejectedException) ws).getStatus());
    SockJSBrowsers browsers = SockJSBrowsers.start();
    toClose.add(browsers);
    SockJSBrowsers.Browser refused = browsers.open("crowded", server.port(), "websocket");
    JsonObject error =
        refused.await(event -> "error".equals(event.getString("event")), "the refusal");
    assertTrue(
        error
            .getJsonObject("error")
            .getString("message")
            .startsWith("RATE_LIMITED: more than 2 open connections"),
        error.encode());
    refused.await(event -> "closed".equals(event.getString("event")), "the connection to close");

    // A closed stream gives its place back.
    Await.result(first.close());
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                SseClient.connect(vertx, server.port(), "/api/rooms/" + roomId + "/events")
                    .map(opened -> toClose.add(() -> Await.result(opened.close())))
                    .otherwise(false)));
    Await.result(second.close());
  }

  @Test
  void aClientHasSoManyRoomsOpenAtOnce() {
    start(Map.of("CANVAS_AGENT_ROOMS_PER_CLIENT", "2"));
    SseClient a = server.events(roomId + "-a");
    WsClient b = Await.result(WsClient.connect(vertx, server.port(), roomId + "-b"));
    SseClient againA = server.events(roomId + "-a");
    Throwable third =
        Await.failure(
            SseClient.connect(vertx, server.port(), "/api/rooms/" + roomId + "-c/events"));
    assertTrue(
        third.getMessage().contains("429")
            && third.getMessage().contains("CANVAS_AGENT_ROOMS_PER_CLIENT"),
        third.getMessage());

    SockJSBrowsers browsers = SockJSBrowsers.start();
    toClose.add(browsers);
    SockJSBrowsers.Browser page = browsers.open("page", server.port(), "websocket");
    String address = "room." + roomId + "-c.agent:status";
    page.register(address);
    JsonObject refused =
        page.await(event -> "handler_error".equals(event.getString("event")), "the refusal");
    assertEquals(address, refused.getString("address"));
    assertTrue(
        refused
            .getJsonObject("error")
            .getString("message")
            .startsWith("RATE_LIMITED: more than 2 rooms"),
        refused.encode());
    // Its room is not fixed by a refused registration: it may still join one of the client's rooms.
    page.register("room." + roomId + "-b.canvas:host");
    page.awaitMessage(
        "room." + roomId + "-b.canvas:host",
        hello -> "canvas:hello".equals(hello.getString("type")),
        "its hello");

    Await.result(b.close());
    page.close();
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                SseClient.connect(vertx, server.port(), "/api/rooms/" + roomId + "-c/events")
                    .map(opened -> toClose.add(() -> Await.result(opened.close())))
                    .otherwise(false)));
    Await.result(a.close());
    Await.result(againA.close());
  }

  @Test
  void aRoomsMessagesASecondAreLimitedForAllItsConnectionsAndNoOtherRoom() {
    start(
        Map.of(
            "CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND",
            "1",
            "CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND",
            "1000"));
    WsClient flooder = Await.result(WsClient.connect(vertx, server.port(), roomId));
    WsClient elsewhere = Await.result(WsClient.connect(vertx, server.port(), roomId + "-calm"));
    JsonObject viewport =
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1));
    for (int i = 0; i < 30; i++) {
      flooder.send("canvas:viewport", viewport);
    }
    JsonObject error =
        Await.result(
                flooder.awaitTopic(
                    "error", payload -> "RATE_LIMITED".equals(payload.getString("code"))))
            .stream()
            .filter(frame -> "error".equals(frame.getString("topic")))
            .findFirst()
            .orElseThrow()
            .getJsonObject("payload");
    assertTrue(
        error.getString("message").contains("CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND"),
        error.encode());
    assertTrue(error.getLong("retryAfterSeconds") >= 1, error.encode());

    // Another room's messages are its own: an ack there is read (and refused for what it is).
    elsewhere.send(
        "agent:ack",
        new JsonObject()
            .put("type", "agent:ack")
            .put("sessionId", "none")
            .put("seq", 1)
            .put("clientId", elsewhere.clientId()));
    Await.result(
        elsewhere.awaitTopic("error", payload -> "ACK_UNKNOWN".equals(payload.getString("code"))));

    // A SockJS page of the flooded room shares its allowance.
    SockJSBrowsers browsers = SockJSBrowsers.start();
    toClose.add(browsers);
    SockJSBrowsers.Browser page = browsers.open("page", server.port(), "websocket");
    page.register("room." + roomId + ".canvas:host");
    page.awaitMessage(
        "room." + roomId + ".canvas:host",
        hello -> "canvas:hello".equals(hello.getString("type")),
        "its hello");
    boolean refused = false;
    for (int i = 0; i < 20 && !refused; i++) {
      JsonObject reply = page.send("room." + roomId + ".canvas:viewport", viewport);
      refused =
          "reply_error".equals(reply.getString("event"))
              && reply
                  .getJsonObject("error")
                  .getString("message")
                  .startsWith("RATE_LIMITED: more than 1 messages a second into this room");
    }
    assertTrue(refused, "one of 20 sends in a row was over one a second");
    Await.result(flooder.close());
    Await.result(elsewhere.close());
  }

  @Test
  void aViewersMessagesDoNotUseUpTheRoomsAllowance() {
    Map<String, String> environment = new HashMap<>(TestTokens.ENVIRONMENT);
    environment.putAll(
        Map.of(
            "CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND",
            "1",
            "CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND",
            "1000"));
    start(environment);
    TestTokens tokens = new TestTokens(vertx);
    WsClient viewer =
        Await.result(
            WsClient.connect(
                vertx, server.port(), roomId, "access_token=" + tokens.viewer(roomId)));
    WsClient editor =
        Await.result(
            WsClient.connect(
                vertx, server.port(), roomId, "access_token=" + tokens.editor(roomId)));
    JsonObject viewport =
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1));
    for (int i = 0; i < 30; i++) {
      viewer.send("canvas:viewport", viewport);
    }
    List<JsonObject> refused =
        Await.result(
            viewer.awaitFrame(
                frame ->
                    viewer.received().stream()
                            .filter(each -> "error".equals(each.getString("topic")))
                            .count()
                        >= 30));
    assertTrue(
        refused.stream()
            .filter(frame -> "error".equals(frame.getString("topic")))
            .allMatch(
                frame -> "FORBIDDEN".equals(frame.getJsonObject("payload").getString("code"))));
    editor.send(
        "agent:ack",
        new JsonObject()
            .put("type", "agent:ack")
            .put("sessionId", "none")
            .put("seq", 1)
            .put("clientId", editor.clientId()));
    Await.result(
        editor.awaitTopic("error", payload -> "ACK_UNKNOWN".equals(payload.getString("code"))));
    Await.result(viewer.close());
    Await.result(editor.close());
  }

  @Test
  void aClientsScreenshotBytesAMinuteAreLimitedAndARefusedScreenshotIsNotPassedOn() {
    start(Map.of("CANVAS_AGENT_SCREENSHOT_BYTES_PER_MINUTE", "1024"));
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId));
    List<JsonObject> published = new ArrayList<>();
    MessageConsumer<JsonObject> consumer =
        vertx
            .eventBus()
            .consumer(
                "room." + roomId + ".agent:screenshot",
                message -> {
                  synchronized (published) {
                    published.add(message.body());
                  }
                });
    Await.result(consumer.completion());

    host.send("agent:screenshot", screenshot("first", 600));
    host.send("agent:screenshot", screenshot("too-much", 600));
    JsonObject error =
        Await.result(
                host.awaitTopic(
                    "error", payload -> "RATE_LIMITED".equals(payload.getString("code"))))
            .stream()
            .filter(frame -> "error".equals(frame.getString("topic")))
            .findFirst()
            .orElseThrow()
            .getJsonObject("payload");
    assertTrue(
        error.getString("message").contains("CANVAS_AGENT_SCREENSHOT_BYTES_PER_MINUTE"),
        error.encode());
    host.send("agent:screenshot", screenshot("small", 100));
    Await.result(
        Eventually.holds(
            vertx,
            () -> {
              synchronized (published) {
                return Future.succeededFuture(published.size() >= 2);
              }
            }));
    synchronized (published) {
      assertEquals(
          List.of("first", "small"),
          published.stream().map(body -> body.getString("requestId")).toList());
    }
    Await.result(consumer.unregister());
    Await.result(host.close());
  }

  /** A host's screenshot whose data URL is {@code bytes} long. */
  static JsonObject screenshot(String requestId, int bytes) {
    String prefix = "data:image/png;base64,";
    JsonObject box = new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1);
    return new JsonObject()
        .put("type", "agent:screenshot")
        .put("sessionId", "s")
        .put("requestId", requestId)
        .put(
            "image",
            new JsonObject()
                .put("mime", "image/png")
                .put("dataUrl", prefix + "A".repeat(bytes - prefix.length()))
                .put("bytes", bytes))
        .put("bounds", box)
        .put("viewport", box)
        .put("selection", new JsonArray())
        .put("docVersion", "0");
  }
}
