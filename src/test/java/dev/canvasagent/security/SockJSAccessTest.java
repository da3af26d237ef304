package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SockJSBrowsers.Browser;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * The SockJS bridge with auth on, driven by the official client in Node on each transport: every
 * REGISTER needs a viewer's token for the room and every SEND or PUBLISH an editor's, in
 * {@code headers.authorization} (the client's {@code defaultHeaders}). A refused registration joins
 * nothing and hears nothing; a refused send changes nothing; an editor works as without auth.
 */
@ExtendWith(VertxExtension.class)
class SockJSAccessTest {
  static final String PNG = "data:image/png;base64,iVBORw0KGgo=";
  static final List<String> TOPICS =
      List.of(
          "agent:action",
          "agent:chat",
          "agent:status",
          "agent:screenshot_request",
          "canvas:change",
          "doc:lease",
          "canvas:resync",
          "canvas:host");

  Vertx vertx;
  TestServer server;
  TestTokens tokens;
  SockJSBrowsers browsers;
  String roomId;
  String otherRoomId;
  final Logger bridgeLog = (Logger) LoggerFactory.getLogger("dev.canvasagent.bridge.SockJSBridge");
  final ListAppender<ILoggingEvent> refusals = new ListAppender<>();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_JWT_SECRET",
                    TestTokens.SECRET,
                    "CANVAS_AGENT_ACK_TIMEOUT_MS",
                    "60000")));
    tokens = new TestTokens(vertx);
    roomId = "sockjs-access-" + UUID.randomUUID().toString().substring(0, 8);
    otherRoomId = roomId + "-other";
    browsers = SockJSBrowsers.start();
    refusals.start();
    bridgeLog.addAppender(refusals);
  }

  @AfterEach
  void stop() {
    bridgeLog.detachAppender(refusals);
    browsers.close();
    Await.result(server.stop());
  }

  static JsonObject authorization(String token) {
    return new JsonObject().put("authorization", TestTokens.bearer(token));
  }

  String address(String topic) {
    return "room." + roomId + "." + topic;
  }

  String otherAddress(String topic) {
    return "room." + otherRoomId + "." + topic;
  }

  /** Registers what a board page listens to; the hello. */
  JsonObject join(Browser browser) {
    browser.registerAll(TOPICS.stream().map(this::address).toList(), new JsonObject());
    return browser.awaitMessage(
        address("canvas:host"), body -> "canvas:hello".equals(body.getString("type")), "its hello");
  }

  /** The codes the bridge logged for its refusals so far, and how often. */
  Map<String, Long> refusalCodes() {
    synchronized (refusals.list) {
      return refusals.list.stream()
          .filter(event -> "sockjs.refused".equals(event.getMessage()))
          .map(
              event ->
                  event.getKeyValuePairs().stream()
                      .filter(pair -> pair.key.equals("code"))
                      .findFirst()
                      .orElseThrow()
                      .value
                      .toString())
          .collect(Collectors.groupingBy(code -> code, Collectors.counting()));
    }
  }

  static void assertAccepted(JsonObject reply) {
    assertEquals("reply", reply.getString("event"), reply.encode());
    assertEquals(new JsonObject().put("ok", true), reply.getJsonObject("body"));
  }

  static void assertRefused(JsonObject reply, String code) {
    assertEquals("reply_error", reply.getString("event"), reply.encode());
    String message = reply.getJsonObject("error").getString("message");
    assertTrue(message.startsWith(code + ": "), "expected " + code + ", got " + reply.encode());
  }

  static JsonObject ack(String sessionId, long seq, String clientId) {
    return new JsonObject()
        .put("type", "agent:ack")
        .put("sessionId", sessionId)
        .put("seq", seq)
        .put("clientId", clientId);
  }

  static JsonObject screenshot(String requestId) {
    JsonObject box = new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1);
    return new JsonObject()
        .put("type", "agent:screenshot")
        .put("requestId", requestId)
        .put("image", new JsonObject().put("mime", "image/png").put("dataUrl", PNG).put("bytes", 8))
        .put("bounds", box)
        .put("viewport", box)
        .put("selection", new JsonArray())
        .put("docVersion", "0");
  }

  long revision() {
    HttpResponse<Buffer> board =
        Await.result(
            server
                .http()
                .get("/api/rooms/" + roomId + "/board")
                .putHeader("authorization", TestTokens.bearer(tokens.admin()))
                .send());
    assertEquals(200, board.statusCode(), board.bodyAsString());
    return board.bodyAsJsonObject().getLong("revision");
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"websocket", "xhr-streaming", "xhr-polling"})
  void withoutTheRightTokenABrowserJoinsNothingHearsNothingAndChangesNothing(String transport) {
    List<JsonObject> screenshotsOnTheBus = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> screenshots =
        vertx
            .eventBus()
            .consumer(
                address("agent:screenshot"), message -> screenshotsOnTheBus.add(message.body()));
    Await.result(screenshots.completion());

    // Registrations without a token that reaches the room: each refused, none joins.
    String editor = tokens.editor(roomId);
    Map<String, JsonObject> strangers =
        Map.of(
            "none", new JsonObject(),
            "late", authorization(tokens.expired(roomId)),
            "stranger", authorization(tokens.editor(otherRoomId)),
            "forger", authorization(editor.substring(0, editor.length() - 2)),
            "unprefixed", new JsonObject().put("authorization", editor));
    List<Browser> refused =
        strangers.entrySet().stream()
            .map(
                stranger ->
                    browsers.open(stranger.getKey(), server.port(), transport, stranger.getValue()))
            .toList();
    for (Browser browser : refused) {
      browser.registerAll(TOPICS.stream().map(this::address).toList(), new JsonObject());
      browser
          .awaitCount("error", TOPICS.size())
          .forEach(
              error ->
                  assertEquals(
                      new JsonObject().put("type", "err").put("body", "rejected"),
                      error.getJsonObject("error")));
    }
    long each = TOPICS.size();
    assertEquals(
        Map.of("UNAUTHENTICATED", 3 * each, "TOKEN_EXPIRED", each, "FORBIDDEN", each),
        refusalCodes());

    // An editor and a viewer of the room, each with its token in the client's defaultHeaders.
    Browser host = browsers.open("host", server.port(), transport, authorization(editor));
    String hostId = join(host).getString("clientId");
    Browser viewer =
        browsers.open("viewer", server.port(), transport, authorization(tokens.viewer(roomId)));
    JsonObject viewerHello = join(viewer);
    String viewerId = viewerHello.getString("clientId");
    assertEquals(hostId, viewerHello.getString("hostClientId"));

    HttpResponse<Buffer> run =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("authorization", TestTokens.bearer(editor))
                .sendJsonObject(
                    new JsonObject()
                        .put("roomId", roomId)
                        .put("message", "a box for the roadmap")));
    assertEquals(202, run.statusCode(), run.bodyAsString());
    String sessionId = run.bodyAsJsonObject().getString("sessionId");
    JsonObject request =
        host.awaitMessage(
            address("agent:screenshot_request"), body -> true, "the screenshot request");
    // A screenshot for another room, and one with another room's token, are refused; the host's own
    // goes through.
    assertRefused(
        host.send(otherAddress("agent:screenshot"), screenshot(request.getString("requestId"))),
        "OTHER_ROOM");
    assertRefused(
        host.send(
            address("agent:screenshot"),
            screenshot(request.getString("requestId")),
            authorization(tokens.editor(otherRoomId))),
        "FORBIDDEN");
    assertAccepted(
        host.send(address("agent:screenshot"), screenshot(request.getString("requestId"))));
    host.awaitMessage(
        address("agent:status"),
        status ->
            sessionId.equals(status.getString("sessionId"))
                && "done".equals(status.getString("state")),
        "the run's end");
    List<JsonObject> actions = host.messages(address("agent:action"));
    assertEquals(3, actions.size(), actions.toString());
    for (JsonObject action : actions) {
      long seq = action.getJsonObject("body").getLong("seq");
      assertRefused(
          host.send(otherAddress("agent:ack"), ack(sessionId, seq, hostId)), "OTHER_ROOM");
      assertRefused(
          host.send(
              address("agent:ack"),
              ack(sessionId, seq, hostId),
              authorization(tokens.expired(roomId))),
          "TOKEN_EXPIRED");
      assertRefused(viewer.send(address("agent:ack"), ack(sessionId, seq, viewerId)), "FORBIDDEN");
      assertAccepted(host.send(address("agent:ack"), ack(sessionId, seq, hostId)));
    }
    viewer.awaitMessage(
        address("agent:status"),
        status ->
            sessionId.equals(status.getString("sessionId"))
                && "done".equals(status.getString("state")),
        "the run's end");
    assertEquals(
        actions.stream().map(action -> action.getJsonObject("body")).toList(),
        viewer.messages(address("agent:action")).stream()
            .map(action -> action.getJsonObject("body"))
            .toList(),
        "a viewer hears the run");
    assertEquals(
        List.of(),
        viewer.messages(address("agent:screenshot_request")),
        "but is never asked for a screenshot");

    // A viewer's edits and viewport, by send or publish, are refused and change nothing.
    long revision = revision();
    JsonObject change =
        new JsonObject()
            .put("baseRevision", revision)
            .put("put", new JsonArray().add(TestShapes.geo("viewer-box", 0, 0, 10, 10)));
    assertRefused(viewer.send(address("canvas:change"), change), "FORBIDDEN");
    assertRefused(
        viewer.send(
            address("canvas:viewport"),
            new JsonObject()
                .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 10))),
        "FORBIDDEN");
    viewer.publish(address("canvas:change"), change);
    viewer.awaitCount("error", 6);
    assertEquals(revision, revision());
    JsonObject viewports =
        Await.result(
                vertx
                    .eventBus()
                    .<JsonObject>request(
                        Address.BRIDGE_VIEWPORTS.address(), new JsonObject().put("roomId", roomId)))
            .body();
    assertEquals(new JsonArray(), viewports.getJsonArray("viewports"));
    // A browser that joined no room may not send into one, whatever its token.
    Browser outsider = browsers.open("outsider", server.port(), transport, authorization(editor));
    assertRefused(outsider.send(address("agent:ack"), ack(sessionId, 1, "x")), "NOT_JOINED");

    assertEquals(
        1,
        screenshotsOnTheBus.size(),
        "only the host's own screenshot reached the bus: " + screenshotsOnTheBus);
    assertEquals(hostId, screenshotsOnTheBus.get(0).getString("clientId"));
    for (Browser browser : refused) {
      assertEquals(List.of(), browser.events("message"), "a refused browser heard nothing");
      assertEquals(List.of(), browser.events("unhandled"));
    }
    assertEquals(
        8, host.awaitCount("error", 8).size(), "the host was refused only what it should not do");
    Await.result(screenshots.unregister());
  }

  @Test
  void aViewerAloneInTheRoomDoesNotHostUntilItsConnectionShowsAnEditorsToken() {
    Browser viewer =
        browsers.open("viewer", server.port(), "websocket", authorization(tokens.viewer(roomId)));
    JsonObject hello = join(viewer);
    assertNull(hello.getString("hostClientId"), "a room with only a viewer has no host");
    assertEquals(FailureCode.NO_HOST, captureFailure());

    // The same page, given an editor's token, may host once it next speaks with it.
    viewer.defaultHeaders(authorization(tokens.editor(roomId)));
    assertAccepted(
        viewer.send(
            address("canvas:viewport"),
            new JsonObject()
                .put(
                    "bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 10))));
    JsonObject elected =
        viewer.awaitMessage(
            address("canvas:host"),
            body -> "canvas:host".equals(body.getString("type")),
            "the election");
    assertEquals(hello.getString("clientId"), elected.getString("hostClientId"));
  }

  @Test
  void aSockJSConnectionClosesWhenItsTokenExpires() {
    Browser brief =
        browsers.open(
            "brief",
            server.port(),
            "websocket",
            authorization(tokens.lasting(Duration.ofSeconds(2), Role.VIEWER, roomId)));
    join(brief);
    Browser lasting =
        browsers.open("lasting", server.port(), "websocket", authorization(tokens.viewer(roomId)));
    join(lasting);
    brief.await(
        event -> "closed".equals(event.getString("event")),
        "its connection to close at the token's expiry");
    assertEquals(List.of(), lasting.events("closed"), "a connection whose token lasts stays open");
  }

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

  @Test
  void theRoomsOfAConnectionStayOneWhateverTheTokenGrants() {
    String both = tokens.editor(roomId, otherRoomId);
    Browser browser = browsers.open("both", server.port(), "websocket", authorization(both));
    String clientId = join(browser).getString("clientId");
    browser.register(otherAddress("agent:action"));
    browser.awaitCount("error", 1);
    assertRefused(browser.send(otherAddress("agent:ack"), ack("s", 1, clientId)), "OTHER_ROOM");
    assertEquals(
        Set.of(),
        browser.events("message").stream()
            .map(message -> message.getString("address"))
            .filter(address -> !address.startsWith("room." + roomId + "."))
            .collect(Collectors.toSet()));
  }
}
