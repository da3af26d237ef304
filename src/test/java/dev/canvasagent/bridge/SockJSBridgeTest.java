package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SockJSBrowsers.Browser;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SockJS event-bus bridge as browsers use it: the official client from npm
 * ({@code @vertx/eventbus-bridge-client.js}) in Node against the real server. Two browsers of a room
 * get a run's envelopes in seq order on every SockJS transport. The host acks them and answers the
 * screenshot request. Anything a browser may not do is refused, and the other browser is not disturbed.
 */
@ExtendWith(VertxExtension.class)
class SockJSBridgeTest {
  static final String PNG = "data:image/png;base64,iVBORw0KGgo=";

  /** What a board page listens to; {@code canvas:host} last, so its hello says every registration is in. */
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
  SockJSBrowsers browsers;
  String roomId;
  String otherRoomId;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    roomId = "sockjs-" + UUID.randomUUID().toString().substring(0, 8);
    otherRoomId = roomId + "-other";
    browsers = SockJSBrowsers.start();
  }

  @AfterEach
  void stop() {
    browsers.close();
    if (server != null) {
      Await.result(server.stop());
    }
  }

  void startServer(Map<String, String> environment) {
    server = TestServer.start(vertx, TestServer.config(environment));
  }

  String address(String topic) {
    return "room." + roomId + "." + topic;
  }

  /** Registers what a board page listens to and waits for the hello; the hello. */
  JsonObject join(Browser browser, JsonObject firstHeaders) {
    browser.registerAll(TOPICS.stream().map(this::address).toList(), firstHeaders);
    return browser.awaitMessage(
        address("canvas:host"), body -> "canvas:hello".equals(body.getString("type")), "its hello");
  }

  JsonObject join(Browser browser) {
    return join(browser, new JsonObject());
  }

  /** What arrives on a bus address while the test runs. */
  static final class BusRecording {
    private final List<JsonObject> received = new ArrayList<>();

    synchronized void add(JsonObject body) {
      received.add(body);
      notifyAll();
    }

    /** Everything so far, once there are at least {@code count}. */
    synchronized List<JsonObject> awaitSize(int count) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Await.DEFAULT_SECONDS);
      while (received.size() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(
              "only " + received.size() + " of " + count + " messages: " + received);
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      return List.copyOf(received);
    }
  }

  BusRecording listen(String address) {
    BusRecording recording = new BusRecording();
    MessageConsumer<JsonObject> consumer =
        vertx
            .eventBus()
            .consumer(address, (Message<JsonObject> message) -> recording.add(message.body()));
    Await.result(consumer.completion());
    return recording;
  }

  String postRun(String message) {
    HttpResponse<Buffer> response =
        server.postRun(new JsonObject().put("roomId", roomId).put("message", message));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getString("sessionId");
  }

  static Predicate<JsonObject> finalStatusOf(String sessionId) {
    return status ->
        sessionId.equals(status.getString("sessionId"))
            && Set.of("done", "error", "canceled").contains(status.getString("state"));
  }

  static JsonObject ack(String sessionId, long seq, String clientId) {
    return new JsonObject()
        .put("type", "agent:ack")
        .put("sessionId", sessionId)
        .put("seq", seq)
        .put("clientId", clientId);
  }

  /**
   * A host's screenshot reply as the wire protocol has it: image with its size, bounds, viewport,
   * selection.
   */
  static JsonObject screenshot(String requestId) {
    JsonObject box = new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1);
    int bytes = java.util.Base64.getDecoder().decode(PNG.substring(PNG.indexOf(',') + 1)).length;
    return new JsonObject()
        .put("type", "agent:screenshot")
        .put("requestId", requestId)
        .put(
            "image",
            new JsonObject().put("mime", "image/png").put("dataUrl", PNG).put("bytes", bytes))
        .put("bounds", box)
        .put("viewport", box)
        .put("selection", new io.vertx.core.json.JsonArray())
        .put("docVersion", "0");
  }

  /** The host's part of a run: it answers the screenshot request the run starts with. */
  void answerScreenshot(Browser host, int nth) {
    JsonObject request = nth(host, address("agent:screenshot_request"), nth).getJsonObject("body");
    assertAccepted(
        host.send(
            address("agent:screenshot"),
            screenshot(request.getString("requestId")).put("clientId", "forged")));
  }

  /** The {@code n}th message (from 1) on an address, once it has arrived. */
  static JsonObject nth(Browser browser, String address, int n) {
    browser.await(
        event -> browser.messages(address).size() >= n, "message " + n + " on " + address);
    return browser.messages(address).get(n - 1);
  }

  /** What a handler got: body and headers. */
  static List<JsonObject> delivered(List<JsonObject> messages) {
    return messages.stream()
        .map(
            message ->
                new JsonObject()
                    .put("body", message.getJsonObject("body"))
                    .put("headers", message.getJsonObject("headers")))
        .toList();
  }

  static List<JsonObject> bodies(List<JsonObject> messages) {
    return messages.stream().map(message -> message.getJsonObject("body")).toList();
  }

  static void assertAccepted(JsonObject reply) {
    assertEquals("reply", reply.getString("event"), reply.encode());
    assertEquals(new JsonObject().put("ok", true), reply.getJsonObject("body"));
  }

  static void assertRefused(JsonObject reply, String code) {
    assertEquals("reply_error", reply.getString("event"), reply.encode());
    JsonObject error = reply.getJsonObject("error");
    assertEquals("RECIPIENT_FAILURE", error.getString("failureType"), error.encode());
    assertTrue(
        error.getString("message").startsWith(code + ": "),
        "expected " + code + ", got " + error.encode());
  }

  int pendingAcks() {
    return server
        .get("/health")
        .bodyAsJsonObject()
        .getJsonObject("verticles")
        .getJsonObject("bridge")
        .getInteger("pendingAcks");
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"websocket", "xhr-streaming", "xhr-polling"})
  void twoBrowsersOfARoomGetTheRunInSeqOrderAndOnlyTheHostIsAskedForScreenshotsAndAcks(
      String transport) {
    // Acks are settled by the host's replies here, never by a timer.
    startServer(Map.of("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000"));
    BusRecording screenshotsOnTheBus = listen(address("agent:screenshot"));
    BusRecording changesOnTheBus = listen(address("canvas:change"));
    BusRecording handledOnTheBus = listen(Address.BRIDGE_SOCKJS_HANDLED.address());

    Browser host = browsers.open("host", server.port(), transport);
    assertEquals(transport, host.transport());
    JsonObject hostHello = join(host);
    String hostId = hostHello.getString("clientId");
    assertEquals(hostId, hostHello.getString("hostClientId"), "the room's first browser hosts it");
    Browser viewer = browsers.open("viewer", server.port(), transport);
    JsonObject viewerHello = join(viewer);
    String viewerId = viewerHello.getString("clientId");
    assertEquals(hostId, viewerHello.getString("hostClientId"));
    assertNotEquals(hostId, viewerId);

    // The viewer tries what no browser may do. Each is refused, and its connection stays up.
    String otherRoom = "room." + otherRoomId + ".";
    JsonObject envelope =
        new JsonObject()
            .put("v", "tldraw-actions/1")
            .put("sessionId", "s")
            .put("seq", 1)
            .put("actions", new JsonArray());
    assertRefused(viewer.send(otherRoom + "agent:ack", ack("s", 1, viewerId)), "OTHER_ROOM");
    assertRefused(
        viewer.send(
            otherRoom + "canvas:viewport",
            new JsonObject()
                .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 10))),
        "OTHER_ROOM");
    assertRefused(viewer.send(address("agent:action"), envelope), "NOT_PERMITTED");
    assertRefused(
        viewer.send(
            Address.SCHEDULER_SUBMIT.address(),
            new JsonObject().put("roomId", roomId).put("message", "hi")),
        "NOT_PERMITTED");
    assertRefused(
        viewer.send(Address.RUNNER_RUN.address(), new JsonObject().put("roomId", roomId)),
        "NOT_PERMITTED");
    assertRefused(
        viewer.send(Address.BRIDGE_SOCKJS_HANDLED.address(), new JsonObject()), "NOT_PERMITTED");
    assertRefused(
        viewer.send(address("agent:ack"), ack("s", 1, viewerId).put("seq", "one")),
        "INVALID_PAYLOAD");
    assertRefused(viewer.send(address("agent:ack"), ack("s", 1, hostId)), "FORGED_CLIENT_ID");
    assertRefused(viewer.send(address("agent:screenshot"), screenshot("r-1")), "NOT_HOST");
    assertRefused(
        viewer.send(address("canvas:change"), new JsonObject().put("put", new JsonArray())),
        "INVALID_PAYLOAD");
    viewer.publish(address("agent:action"), envelope);
    viewer.publish(
        address("canvas:change"),
        new JsonObject().put("type", "canvas:change").put("revision", 99));
    // The bridge's own refusal, once for each: what the client's onerror sees.
    List<JsonObject> rejected = viewer.awaitCount("error", 12);
    assertEquals(12, rejected.size(), rejected.toString());
    rejected.forEach(
        error ->
            assertEquals(
                new JsonObject().put("type", "err").put("body", "rejected"),
                error.getJsonObject("error")));

    String sessionId = postRun("a box for the roadmap");
    answerScreenshot(host, 1);
    for (int n = 1; n <= 3; n++) {
      JsonObject action = nth(host, address("agent:action"), n).getJsonObject("body");
      assertEquals(sessionId, action.getString("sessionId"));
      assertAccepted(
          host.send(address("agent:ack"), ack(sessionId, action.getLong("seq"), hostId)));
    }
    JsonObject done =
        host.awaitMessage(address("agent:status"), finalStatusOf(sessionId), "the run's end");
    assertEquals("done", done.getString("state"), done.encode());
    viewer.awaitMessage(address("agent:status"), finalStatusOf(sessionId), "the run's end");

    List<JsonObject> hostActions = host.messages(address("agent:action"));
    assertEquals(3, hostActions.size(), "three shapes, each sent once: " + hostActions);
    for (int i = 1; i < hostActions.size(); i++) {
      assertTrue(
          hostActions.get(i).getJsonObject("body").getLong("seq")
              > hostActions.get(i - 1).getJsonObject("body").getLong("seq"));
    }
    assertEquals(
        delivered(hostActions),
        delivered(viewer.messages(address("agent:action"))),
        "the same envelopes, same order, same event ids");
    assertEquals(
        bodies(host.messages(address("agent:status"))),
        bodies(viewer.messages(address("agent:status"))));
    assertEquals(
        bodies(host.messages(address("agent:chat"))),
        bodies(viewer.messages(address("agent:chat"))));

    assertEquals(1, host.messages(address("agent:screenshot_request")).size());
    assertEquals(
        List.of(),
        viewer.messages(address("agent:screenshot_request")),
        "screenshot requests go to the host only");
    List<JsonObject> screenshots = screenshotsOnTheBus.awaitSize(1);
    assertEquals(1, screenshots.size(), screenshots.toString());
    assertEquals(
        hostId, screenshots.get(0).getString("clientId"), "the server stamps who answered");
    assertEquals(0, pendingAcks(), "the host's acks settled every envelope");

    // A viewer's ack is welcome; an ack of a seq never sent is not.
    assertAccepted(viewer.send(address("agent:ack"), ack(sessionId, 1, viewerId)));
    assertRefused(host.send(address("agent:ack"), ack(sessionId, 99, hostId)), "ACK_UNKNOWN");

    // A person's change goes to the patch engine; what comes back is the authoritative change.
    long revision = hostActions.get(2).getJsonObject("body").getLong("rev");
    String shapeId =
        hostActions
            .get(2)
            .getJsonObject("body")
            .getJsonObject("diff")
            .getJsonArray("put")
            .getJsonObject(0)
            .getString("id");
    // A change to what the board already holds changes nothing: no revision, no canvas:change, and
    // the reply says so (the page's change sender need not wait for an echo).
    JsonObject asItIs =
        hostActions
            .get(2)
            .getJsonObject("body")
            .getJsonObject("diff")
            .getJsonArray("put")
            .getJsonObject(0);
    assertEquals(
        new JsonObject().put("ok", true).put("revision", revision).put("changed", false),
        viewer
            .send(
                address("canvas:change"),
                new JsonObject()
                    .put("baseRevision", revision)
                    .put("put", new JsonArray().add(asItIs)))
            .getJsonObject("body"));
    assertEquals(
        new JsonObject().put("ok", true).put("revision", revision + 1).put("changed", true),
        viewer
            .send(
                address("canvas:change"),
                new JsonObject()
                    .put("baseRevision", revision)
                    .put("remove", new JsonArray().add(shapeId)))
            .getJsonObject("body"));
    JsonObject change =
        host.awaitMessage(
            address("canvas:change"),
            body -> body.getLong("revision") == revision + 1,
            "the change");
    assertEquals("person:" + viewerId, change.getString("author"));
    assertEquals(change, viewer.awaitMessage(address("canvas:change"), body -> true, "the change"));
    assertEquals(
        List.of(change),
        changesOnTheBus.awaitSize(1),
        "a browser's own canvas:change never reaches the room's topic, nor one that changed nothing");

    // What the bridge let onto the bus: notes naming room, client and topic, never a payload.
    List<JsonObject> handled = handledOnTheBus.awaitSize(7);
    assertEquals(
        List.of(
            "agent:screenshot",
            "agent:ack",
            "agent:ack",
            "agent:ack",
            "agent:ack",
            "canvas:change",
            "canvas:change"),
        handled.stream().map(note -> note.getString("topic")).toList());
    handled.forEach(
        note ->
            assertEquals(Set.of("roomId", "clientId", "topic"), note.fieldNames(), note.encode()));

    assertEquals(
        1, host.awaitCount("error", 1).size(), "the host had one refusal, its unknown ack");
    assertEquals(
        List.of(),
        host.events("unhandled"),
        "nothing arrives on an address the host did not register");
    assertEquals(List.of(), viewer.events("unhandled"));
    assertEquals(List.of(), host.events("handler_error"));
  }

  @Test
  void aConnectionStaysInTheRoomOfItsFirstRegistration() {
    startServer(Map.of());
    BusRecording otherRoomActions = listen("room." + otherRoomId + ".agent:action");
    Browser browser = browsers.open("browser", server.port(), "websocket");
    browser.register(address("agent:status"));
    browser.register("room." + otherRoomId + ".agent:action");
    browser.register(address("canvas:host"));
    String clientId =
        browser
            .awaitMessage(address("canvas:host"), body -> true, "its hello")
            .getString("clientId");
    assertEquals(
        List.of(new JsonObject().put("type", "err").put("body", "rejected")),
        browser.awaitCount("error", 1).stream()
            .map(error -> error.getJsonObject("error"))
            .toList());
    assertRefused(
        browser.send("room." + otherRoomId + ".agent:ack", ack("s", 1, clientId)), "OTHER_ROOM");
    browser.register("scheduler.submit");
    browser.register("room." + roomId + ".agent:screenshot");
    assertEquals(4, browser.awaitCount("error", 4).size());

    // What the other room carries reaches its browser, and no one here.
    Browser other = browsers.open("other", server.port(), "websocket");
    other.register("room." + otherRoomId + ".agent:action");
    other.register("room." + otherRoomId + ".canvas:host");
    other.awaitMessage("room." + otherRoomId + ".canvas:host", body -> true, "its hello");
    vertx
        .eventBus()
        .publish(
            "room." + otherRoomId + ".agent:action",
            new JsonObject().put("seq", 1).put("marker", "other"));
    vertx.eventBus().publish(address("agent:status"), new JsonObject().put("marker", "here"));
    other.awaitMessage(
        "room." + otherRoomId + ".agent:action",
        body -> "other".equals(body.getString("marker")),
        "the other room's envelope");
    browser.awaitMessage(
        address("agent:status"),
        body -> "here".equals(body.getString("marker")),
        "its room's status");
    assertEquals(1, otherRoomActions.awaitSize(1).size());
    assertEquals(
        List.of(),
        browser.events("message").stream()
            .filter(message -> !message.getString("address").startsWith("room." + roomId + "."))
            .toList());
  }

  @Test
  void aBrowserHostsOnceItListensToEnvelopesAndScreenshotRequests() {
    startServer(Map.of());
    Browser watcher = browsers.open("watcher", server.port(), "websocket");
    watcher.register(address("agent:status"));
    watcher.register(address("canvas:host"));
    JsonObject hello = watcher.awaitMessage(address("canvas:host"), body -> true, "its hello");
    String watcherId = hello.getString("clientId");
    assertEquals(
        null,
        hello.getString("hostClientId"),
        "a browser that hears no screenshot requests does not host");

    Browser board = browsers.open("board", server.port(), "websocket");
    String boardId = join(board).getString("clientId");
    assertEquals(
        boardId,
        watcher
            .awaitMessage(
                address("canvas:host"),
                body -> "canvas:host".equals(body.getString("type")),
                "the first host")
            .getString("hostClientId"));

    watcher.register(address("agent:action"));
    watcher.register(address("agent:screenshot_request"));
    board.unregister(address("agent:screenshot_request"));
    JsonObject handedOver =
        watcher.awaitMessage(
            address("canvas:host"),
            body ->
                "canvas:host".equals(body.getString("type"))
                    && watcherId.equals(body.getString("hostClientId")),
            "the hand-over");
    assertEquals(watcherId, handedOver.getString("hostClientId"));
    assertEquals(
        handedOver,
        board.awaitMessage(
            address("canvas:host"),
            body ->
                "canvas:host".equals(body.getString("type"))
                    && watcherId.equals(body.getString("hostClientId")),
            "the hand-over"));
  }

  @Test
  void whenTheHostLeavesTheNextBrowserHostsAndTheScreenshotRequestsGoToIt() {
    startServer(Map.of());
    Browser first = browsers.open("first", server.port(), "websocket");
    String firstId = join(first).getString("clientId");
    Browser second = browsers.open("second", server.port(), "websocket");
    String secondId = join(second).getString("clientId");
    assertEquals(
        firstId,
        second
            .messages(address("canvas:host"))
            .get(0)
            .getJsonObject("body")
            .getString("hostClientId"));

    first.close();
    JsonObject host =
        second.awaitMessage(
            address("canvas:host"),
            body -> "canvas:host".equals(body.getString("type")),
            "the new host");
    assertEquals(secondId, host.getString("hostClientId"));

    Future<Message<JsonObject>> capture =
        vertx
            .eventBus()
            .request(
                Address.SCREENSHOT_CAPTURE.address(),
                new JsonObject().put("roomId", roomId).put("sessionId", "s"));
    answerScreenshot(second, 1);
    JsonObject image = Await.result(capture).body();
    assertEquals(secondId, image.getString("clientId"));
    assertEquals(PNG, image.getJsonObject("image").getString("dataUrl"));
  }

  @Test
  void anEnvelopeTheHostDoesNotAckIsSentToTheHostAgainThenReportedOnTheStatus() {
    startServer(Map.of("CANVAS_AGENT_ACK_TIMEOUT_MS", "100", "CANVAS_AGENT_ACK_RETRIES", "1"));
    Browser host = browsers.open("host", server.port(), "xhr-streaming");
    join(host);
    Browser viewer = browsers.open("viewer", server.port(), "xhr-streaming");
    join(viewer);

    String sessionId = postRun("a box for the roadmap");
    answerScreenshot(host, 1);
    for (long seq = 1; seq <= 3; seq++) {
      long unacked = seq;
      JsonObject failed =
          viewer.awaitMessage(
              address("agent:status"),
              status ->
                  "error".equals(status.getString("state"))
                      && status.getJsonObject("detail").getLong("seq") == unacked,
              "ACK_TIMEOUT for seq " + seq);
      assertEquals("ACK_TIMEOUT", failed.getJsonObject("detail").getString("code"));
      assertEquals(sessionId, failed.getString("sessionId"));
    }
    viewer.awaitMessage(
        address("agent:status"),
        status -> "done".equals(status.getString("state")),
        "the run's end");

    List<Long> hostSeqs =
        bodies(host.messages(address("agent:action"))).stream()
            .map(body -> body.getLong("seq"))
            .sorted()
            .toList();
    assertEquals(
        List.of(1L, 1L, 2L, 2L, 3L, 3L),
        hostSeqs,
        "each envelope once, then once more to the host");
    assertEquals(
        List.of(1L, 2L, 3L),
        bodies(viewer.messages(address("agent:action"))).stream()
            .map(body -> body.getLong("seq"))
            .toList(),
        "the viewer gets each once");
    assertEquals(0, pendingAcks());
  }

  @Test
  void aBrowserThatComesBackGetsWhatItMissedOrTheBoard() {
    startServer(Map.of("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000"));
    Browser host = browsers.open("host", server.port(), "websocket");
    String hostId = join(host).getString("clientId");
    String sessionId = postRun("a box for the roadmap");
    answerScreenshot(host, 1);
    host.awaitMessage(address("agent:status"), finalStatusOf(sessionId), "the run's end");
    List<JsonObject> actions = host.messages(address("agent:action"));
    actions.forEach(
        action ->
            assertAccepted(
                host.send(
                    address("agent:ack"),
                    ack(sessionId, action.getJsonObject("body").getLong("seq"), hostId))));
    String firstId = actions.get(0).getJsonObject("headers").getString("id");

    Browser back = browsers.open("back", server.port(), "xhr-polling");
    join(back, new JsonObject().put("lastEventId", firstId));
    assertEquals(
        bodies(actions.subList(1, 3)),
        bodies(back.messages(address("agent:action"))),
        "the envelopes after the one it saw");
    assertTrue(
        bodies(back.messages(address("agent:status"))).stream().anyMatch(finalStatusOf(sessionId)),
        "and the statuses after it");
    assertEquals(List.of(), back.events("unhandled"));

    Browser stale = browsers.open("stale", server.port(), "websocket");
    join(stale, new JsonObject().put("lastEventId", "00000000-7"));
    JsonObject resync = stale.awaitMessage(address("canvas:resync"), body -> true, "a resync");
    JsonObject board = server.board(roomId);
    assertEquals(board.getLong("revision"), resync.getLong("revision"));
    assertEquals(board.getJsonArray("records"), resync.getJsonArray("records"));
    assertEquals(
        List.of(),
        stale.messages(address("agent:action")),
        "a resync instead of a replay it cannot continue");
  }

  @Test
  void onlyTheXhrSendRouteReadsABodyAndItIsBounded() {
    startServer(Map.of("CANVAS_AGENT_MAX_MESSAGE_BYTES", "1024"));
    HttpResponse<Buffer> info = server.get("/eventbus/info");
    assertEquals(200, info.statusCode());
    assertEquals(true, info.bodyAsJsonObject().getBoolean("websocket"));

    String tooLarge = "[\"" + "x".repeat(2_000) + "\"]";
    HttpResponse<Buffer> send =
        Await.result(
            server
                .http()
                .post("/eventbus/000/" + UUID.randomUUID() + "/xhr_send")
                .sendBuffer(Buffer.buffer(tooLarge)));
    assertEquals(413, send.statusCode(), send.bodyAsString());
    assertEquals(
        "BODY_TOO_LARGE", send.bodyAsJsonObject().getJsonObject("error").getString("code"));

    // A poll opens a session; SockJS closes the connection after it, and says so.
    String session = UUID.randomUUID().toString();
    HttpResponse<Buffer> poll =
        Await.result(server.http().post("/eventbus/000/" + session + "/xhr").send());
    assertEquals(200, poll.statusCode());
    assertEquals("o\n", poll.bodyAsString());
    assertEquals("close", poll.getHeader("connection"));

    // A send for a session that does not exist reaches SockJS, which does not know it.
    HttpResponse<Buffer> unknown =
        Await.result(
            server
                .http()
                .post("/eventbus/000/" + UUID.randomUUID() + "/xhr_send")
                .sendBuffer(Buffer.buffer("[\"{}\"]")));
    assertEquals(404, unknown.statusCode(), unknown.bodyAsString());
  }
}
