package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.HeldDeliveries;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SockJSBrowsers.Browser;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client that comes back, on every transport. One that resumes from an id the room cannot continue
 * from gets {@code canvas:resync} at revision R and then nothing at or below R, however its board read
 * and the run's commits interleave; the test makes each interleaving happen by holding the patch
 * engine's requests or replies. One that resumes from an id the room can continue from gets what it
 * missed as the live stream routed it: {@code set_viewport} envelopes only if it hosts the room.
 */
@ExtendWith(VertxExtension.class)
class ResyncAndReplayTest {
  /** An id from no incarnation of the room: the client must be resynced. */
  static final String UNKNOWN_ID = "0badbeef-7";

  Vertx vertx;
  TestServer server;
  String roomId;
  SockJSBrowsers browsers;
  HeldDeliveries commits;
  HeldDeliveries reads;

  /** One event a client received: its topic and payload. */
  record Received(String topic, JsonObject payload) {}

  enum Transport {
    SSE,
    WEBSOCKET,
    SOCKJS
  }

  /** A client of the room over one transport, joined with a last event id. */
  interface Resumed {
    /** Everything received so far, once an event matching {@code until} has arrived. */
    List<Received> until(Predicate<Received> until);
  }

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    // Acks are settled by the host's replies here, never by a timer.
    server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000")));
    roomId = "resync-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    if (commits != null) {
      commits.close();
    }
    if (reads != null) {
      reads.close();
    }
    if (browsers != null) {
      browsers.close();
    }
    Await.result(server.stop());
  }

  Resumed resume(Transport transport, String lastEventId) {
    return switch (transport) {
      case SSE -> {
        Future<SseClient> sse =
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + roomId + "/events",
                Map.of("Last-Event-ID", lastEventId));
        yield until ->
            Await.result(
                    sse.compose(
                        client ->
                            client.awaitEvent(
                                event -> until.test(new Received(event.event(), event.data())))))
                .stream()
                .map(event -> new Received(event.event(), event.data()))
                .toList();
      }
      case WEBSOCKET -> {
        Future<WsClient> ws =
            WsClient.connect(vertx, server.port(), roomId, "lastEventId=" + lastEventId);
        yield until ->
            Await.result(
                    ws.compose(
                        client ->
                            client.awaitFrame(
                                frame ->
                                    until.test(
                                        new Received(
                                            frame.getString("topic"),
                                            frame.getJsonObject("payload"))))))
                .stream()
                .map(
                    frame -> new Received(frame.getString("topic"), frame.getJsonObject("payload")))
                .toList();
      }
      case SOCKJS -> {
        if (browsers == null) {
          browsers = SockJSBrowsers.start();
        }
        Browser browser = browsers.open("resumed-" + UUID.randomUUID(), server.port(), "websocket");
        String prefix = "room." + roomId + ".";
        browser.registerAll(
            SockJSBridgeTest.TOPICS.stream().map(topic -> prefix + topic).toList(),
            new JsonObject().put("lastEventId", lastEventId));
        yield until -> {
          Predicate<JsonObject> received =
              event ->
                  "message".equals(event.getString("event"))
                      && event.getString("address").startsWith(prefix)
                      && event.getValue("body") instanceof JsonObject;
          Predicate<JsonObject> asReceived =
              event ->
                  until.test(
                      new Received(
                          event.getString("address").substring(prefix.length()),
                          event.getJsonObject("body")));
          browser.await(received.and(asReceived), "an event it waits for");
          return browser.events("message").stream()
              .filter(received)
              .map(
                  event ->
                      new Received(
                          event.getString("address").substring(prefix.length()),
                          event.getJsonObject("body")))
              .toList();
        };
      }
    };
  }

  String run(String message) {
    HttpResponse<Buffer> response =
        server.postRun(new JsonObject().put("roomId", roomId).put("message", message));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getString("sessionId");
  }

  static boolean isFinal(JsonObject status, String sessionId) {
    return sessionId.equals(status.getString("sessionId"))
        && List.of("done", "error", "canceled").contains(status.getString("state"))
        && !"ACK_TIMEOUT"
            .equals(status.getJsonObject("detail", new JsonObject()).getString("code"));
  }

  static Predicate<Received> finalStatusOf(String sessionId) {
    return event -> event.topic().equals("agent:status") && isFinal(event.payload(), sessionId);
  }

  static List<JsonObject> envelopes(List<Received> events) {
    return events.stream()
        .filter(event -> event.topic().equals("agent:action"))
        .map(Received::payload)
        .toList();
  }

  /** The host's final status of the run, once it arrived: every envelope of it is published. */
  static List<JsonObject> awaitEnd(WsClient host, String sessionId) {
    return Await.result(host.awaitTopic("agent:status", status -> isFinal(status, sessionId)));
  }

  /** The events after the one resync, which every one of these clients gets, at revision R. */
  static List<Received> afterResync(List<Received> events) {
    List<Integer> resyncs =
        java.util.stream.IntStream.range(0, events.size())
            .filter(i -> events.get(i).topic().equals("canvas:resync"))
            .boxed()
            .toList();
    assertEquals(1, resyncs.size(), "one resync: " + events);
    return events.subList(resyncs.get(0) + 1, events.size());
  }

  /** An envelope or change in a line: what a failure shows. */
  static String brief(JsonObject payload) {
    JsonArray actions = payload.getJsonArray("actions", new JsonArray());
    return "seq="
        + payload.getValue("seq")
        + " rev="
        + payload.getValue("rev", payload.getValue("revision"))
        + " "
        + actions.stream().map(action -> ((JsonObject) action).getString("name")).toList();
  }

  static List<String> brief(List<JsonObject> payloads) {
    return payloads.stream().map(ResyncAndReplayTest::brief).toList();
  }

  static long resyncRevision(List<Received> events) {
    return events.stream()
        .filter(event -> event.topic().equals("canvas:resync"))
        .findFirst()
        .orElseThrow()
        .payload()
        .getLong("revision");
  }

  /** Nothing after the resync at R is at or below R: no envelope's rev, no change's revision. */
  static void assertNothingAtOrBelow(long revision, List<Received> after) {
    List<Received> covered =
        after.stream()
            .filter(
                event ->
                    event.topic().equals("agent:action")
                            && event.payload().containsKey("rev")
                            && event.payload().getLong("rev") <= revision
                        || event.topic().equals("canvas:change")
                            && event.payload().getLong("revision") <= revision)
            .toList();
    assertEquals(List.of(), covered, "the resync at revision " + revision + " already holds these");
  }

  /**
   * The board read of the resync waits while the run commits every envelope and a person commits a
   * change, so all of them reach the resuming client before its resync, and all are in the board it
   * is sent.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void whatIsCommittedWhileTheBoardIsReadIsNotSentAfterTheResync(Transport transport) {
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    commits = HeldDeliveries.hold(vertx, Address.PATCH_BOARD_APPLY.address());
    String sessionId = run("draw 6 boxes");
    // The run has read its board and sanitized its first action: its commit waits.
    Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(commits.count() > 0)));
    reads = HeldDeliveries.hold(vertx, Address.PATCH_BOARD_GET.address());
    Resumed resumed = resume(transport, UNKNOWN_ID);
    Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(reads.count() > 0)));
    commits.release();
    List<JsonObject> hostSaw = envelopes(received(awaitEnd(host, sessionId)));
    long lastRev = hostSaw.get(hostSaw.size() - 1).getLong("rev");
    HttpResponse<Buffer> person =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + roomId + "/changes")
                .sendJsonObject(
                    new JsonObject()
                        .put("baseRevision", lastRev)
                        .put(
                            "put",
                            new JsonArray()
                                .add(
                                    ShapeRecords.shape(
                                        "shape:person",
                                        "geo",
                                        -500,
                                        -500,
                                        "a0",
                                        ShapeRecords.geoProps("rectangle", 50, 50, "mine"))))));
    assertEquals(200, person.statusCode(), person.bodyAsString());
    long changed = person.bodyAsJsonObject().getLong("revision");
    Await.result(host.awaitTopic("canvas:change", change -> change.getLong("revision") == changed));
    reads.release();

    List<Received> events = resumed.until(finalStatusOf(sessionId));
    assertEquals(changed, resyncRevision(events), "the board was read after every commit");
    assertTrue(hostSaw.size() >= 6, "the run committed its boxes: " + brief(hostSaw));
    assertNothingAtOrBelow(changed, afterResync(events));
  }

  /**
   * A commit is stored but its envelope is not published yet when the resync's board is read: the
   * envelope comes after the resync, and is not sent; the run's later envelopes are.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void anEnvelopeStillOnItsWayWhenTheBoardIsReadIsNotSentAfterTheResync(Transport transport) {
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    commits = HeldDeliveries.holdReplies(vertx, Address.PATCH_BOARD_APPLY.address());
    String sessionId = run("draw 6 boxes");
    // The first box is stored; the run has not heard so, and has published nothing of it.
    Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(commits.count() > 0)));
    Resumed resumed = resume(transport, UNKNOWN_ID);
    long revision = resyncRevision(resumed.until(event -> event.topic().equals("canvas:resync")));
    commits.release();

    List<Received> events = resumed.until(finalStatusOf(sessionId));
    List<JsonObject> hostSaw = envelopes(received(awaitEnd(host, sessionId)));
    assertTrue(
        hostSaw.stream().anyMatch(envelope -> envelope.getLong("rev", 0L) == revision),
        "the held commit's envelope went out after the resync was read: " + brief(hostSaw));
    List<Received> after = afterResync(events);
    assertNothingAtOrBelow(revision, after);
    assertEquals(
        brief(hostSaw.stream().filter(envelope -> envelope.getLong("rev", 0L) > revision).toList()),
        brief(envelopes(after)),
        "every envelope above the resync's revision, each once");
  }

  /**
   * The resyncing client is the room's host: an envelope its board already holds is not sent to it,
   * and the room does not wait for its ack of it either.
   */
  @Test
  void aHostThatIsResyncedOwesNoAckForWhatItsBoardHolds() {
    SseClient watcher = server.events(roomId);
    commits = HeldDeliveries.holdReplies(vertx, Address.PATCH_BOARD_APPLY.address());
    String sessionId = run("draw 6 boxes");
    Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(commits.count() > 0)));
    WsClient host =
        Await.result(WsClient.connect(vertx, server.port(), roomId, "lastEventId=" + UNKNOWN_ID))
            .autoAck();
    JsonObject hello =
        host.received().stream()
            .map(frame -> frame.getJsonObject("payload"))
            .filter(payload -> "canvas:hello".equals(payload.getString("type")))
            .findFirst()
            .orElseThrow();
    assertEquals(host.clientId(), hello.getString("hostClientId"), "it hosts the room");
    long revision = resyncRevision(received(host.received()));
    commits.release();

    List<Received> events = received(awaitEnd(host, sessionId));
    assertNothingAtOrBelow(revision, afterResync(events));
    JsonObject last =
        events.stream().filter(finalStatusOf(sessionId)).findFirst().orElseThrow().payload();
    assertEquals("done", last.getString("state"), last.encode());
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                server
                    .http()
                    .get("/health")
                    .send()
                    .map(
                        health ->
                            health
                                    .bodyAsJsonObject()
                                    .getJsonObject("verticles")
                                    .getJsonObject("bridge")
                                    .getInteger("pendingAcks")
                                == 0)));
    Await.result(watcher.close());
  }

  static List<Received> received(List<JsonObject> frames) {
    return frames.stream()
        .map(frame -> new Received(frame.getString("topic"), frame.getJsonObject("payload")))
        .toList();
  }

  static boolean movesTheViewport(JsonObject envelope) {
    return envelope.getJsonArray("actions").stream()
        .anyMatch(action -> "set_viewport".equals(((JsonObject) action).getString("name")));
  }

  /**
   * A viewer watched a run whose {@code set_viewport} went to the host only; a client that resumes
   * from the viewer's first event while the host is still there gets what the viewer got, on every
   * transport, and no {@code set_viewport}.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aClientThatDoesNotHostIsNotReplayedTheHostsEnvelopes(Transport transport) {
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    SseClient viewer = server.events(roomId);
    String sessionId = run("/tour");
    List<JsonObject> hostSaw = envelopes(received(awaitEnd(host, sessionId)));
    assertTrue(
        hostSaw.stream().anyMatch(ResyncAndReplayTest::movesTheViewport), "" + brief(hostSaw));
    List<SseClient.SseEvent> viewerSaw =
        Await.result(
            viewer.awaitEvent(
                event -> event.event().equals("agent:status") && isFinal(event.data(), sessionId)));
    SseClient.SseEvent cut =
        viewerSaw.stream().filter(event -> event.id() != null).findFirst().orElseThrow();
    List<JsonObject> missed =
        viewerSaw.subList(viewerSaw.indexOf(cut) + 1, viewerSaw.size()).stream()
            .filter(event -> event.event().equals("agent:action"))
            .map(SseClient.SseEvent::data)
            .toList();

    List<Received> replayed = resume(transport, cut.id()).until(finalStatusOf(sessionId));
    assertFalse(
        envelopes(replayed).stream().anyMatch(ResyncAndReplayTest::movesTheViewport),
        "set_viewport is the host's: " + brief(envelopes(replayed)));
    assertEquals(
        brief(missed), brief(envelopes(replayed)), "what the viewer got after its first event");
    assertEquals(missed, envelopes(replayed));
    Await.result(viewer.close());
  }

  /** A client that resumes into a room without a host, and hosts it, is replayed the host's envelopes too. */
  @Test
  void aClientThatHostsAsItResumesIsReplayedTheHostsEnvelopes() {
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    SseClient viewer = server.events(roomId);
    String sessionId = run("/tour");
    List<JsonObject> hostSaw = envelopes(received(awaitEnd(host, sessionId)));
    SseClient.SseEvent cut =
        Await.result(
                viewer.awaitEvent(
                    event ->
                        event.event().equals("agent:status") && isFinal(event.data(), sessionId)))
            .stream()
            .filter(event -> event.id() != null)
            .findFirst()
            .orElseThrow();
    Await.result(host.close());

    WsClient back =
        Await.result(WsClient.connect(vertx, server.port(), roomId, "lastEventId=" + cut.id()));
    assertEquals(
        back.clientId(),
        back.received().stream()
            .filter(
                frame -> "canvas:hello".equals(frame.getJsonObject("payload").getString("type")))
            .findFirst()
            .orElseThrow()
            .getJsonObject("payload")
            .getString("hostClientId"),
        "it hosts the room");
    List<JsonObject> replayed = envelopes(received(awaitEnd(back, sessionId)));
    assertTrue(
        replayed.stream().anyMatch(ResyncAndReplayTest::movesTheViewport), "" + brief(replayed));
    assertEquals(
        brief(hostSaw.subList(hostSaw.size() - replayed.size(), hostSaw.size())),
        brief(replayed),
        "the host's envelopes after the cut");
    Await.result(viewer.close());
  }
}
