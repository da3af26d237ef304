package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Delivery to browsers over SSE and WebSocket: same envelopes for all, host election, acks, resume, refusals. */
@ExtendWith(VertxExtension.class)
class BridgeDeliveryTest {
  Vertx vertx;
  TestServer server;
  String roomId;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_ACK_TIMEOUT_MS", "300",
                    "CANVAS_AGENT_ACK_RETRIES", "1",
                    "CANVAS_AGENT_MAX_MESSAGE_BYTES", "65536",
                    "CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND", "20")));
    roomId = "bridge-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  WsClient ws() {
    return Await.result(WsClient.connect(vertx, server.port(), roomId));
  }

  String run(String message) {
    return server
        .postRun(new JsonObject().put("roomId", roomId).put("message", message))
        .bodyAsJsonObject()
        .getString("sessionId");
  }

  static boolean isFinal(JsonObject status, String sessionId) {
    return sessionId.equals(status.getString("sessionId"))
        && List.of("done", "error").contains(status.getString("state"))
        && !"ACK_TIMEOUT"
            .equals(status.getJsonObject("detail", new JsonObject()).getString("code"));
  }

  static List<JsonObject> envelopes(List<JsonObject> frames) {
    return frames.stream()
        .filter(frame -> "agent:action".equals(frame.getString("topic")))
        .map(frame -> frame.getJsonObject("payload"))
        .toList();
  }

  @Test
  void everyTransportGetsTheSameEnvelopesInTheSameOrder() {
    WsClient host = ws().autoAck();
    WsClient other = ws();
    SseClient sse = server.events(roomId);
    String sessionId = run("same for all");
    List<JsonObject> seenByHost =
        envelopes(
            Await.result(host.awaitTopic("agent:status", status -> isFinal(status, sessionId))));
    List<JsonObject> seenByOther =
        envelopes(
            Await.result(other.awaitTopic("agent:status", status -> isFinal(status, sessionId))));
    List<JsonObject> seenBySse =
        Await.result(
                sse.awaitEvent(
                    event ->
                        event.event().equals("agent:status") && isFinal(event.data(), sessionId)))
            .stream()
            .filter(e -> e.event().equals("agent:action"))
            .map(SseEvent::data)
            .toList();
    assertEquals(3, seenByHost.size());
    assertEquals(seenByHost, seenByOther);
    assertEquals(seenByHost, seenBySse);
    Await.result(sse.close());
  }

  @Test
  void theFirstClientThatCanAnswerIsHostAndTheNextTakesOverWhenItLeaves() {
    SseClient watcher = server.events(roomId);
    WsClient first = ws();
    WsClient second = ws();
    JsonObject hello = second.received().get(0).getJsonObject("payload");
    assertEquals(
        first.clientId(),
        hello.getString("hostClientId"),
        "the SSE watcher cannot host; the first socket does");
    Await.result(first.close());
    Await.result(
        second.awaitTopic(
            "canvas:host", host -> second.clientId().equals(host.getString("hostClientId"))));
    Await.result(watcher.close());
  }

  @Test
  void whenTheHostLeavesMidRunTheNextClientHostsAndTheRunFinishes() {
    WsClient first = ws();
    WsClient second = ws().autoAck();
    String sessionId = run("host leaves");
    Await.result(first.awaitTopic("agent:action", envelope -> true));
    Await.result(first.close());
    Await.result(
        second.awaitTopic(
            "canvas:host", host -> second.clientId().equals(host.getString("hostClientId"))));
    List<JsonObject> frames =
        Await.result(second.awaitTopic("agent:status", status -> isFinal(status, sessionId)));
    JsonObject last =
        frames.stream()
            .filter(frame -> "agent:status".equals(frame.getString("topic")))
            .map(frame -> frame.getJsonObject("payload"))
            .filter(status -> isFinal(status, sessionId))
            .findFirst()
            .orElseThrow();
    assertEquals("done", last.getString("state"));
    assertEquals(3, envelopes(frames).size(), "the new host got every envelope");
  }

  @Test
  void setViewportGoesToTheHostOnly() {
    WsClient host = ws().autoAck();
    WsClient other = ws();
    String sessionId = run("/tour");
    List<JsonObject> hostSaw =
        envelopes(
            Await.result(host.awaitTopic("agent:status", status -> isFinal(status, sessionId))));
    List<JsonObject> otherSaw =
        envelopes(
            Await.result(other.awaitTopic("agent:status", status -> isFinal(status, sessionId))));
    assertTrue(names(hostSaw).contains("set_viewport"));
    assertFalse(names(otherSaw).contains("set_viewport"));
    assertEquals(hostSaw.size() - 1, otherSaw.size());
  }

  static List<String> names(List<JsonObject> envelopes) {
    return envelopes.stream()
        .flatMap(envelope -> envelope.getJsonArray("actions").stream())
        .map(action -> ((JsonObject) action).getString("name"))
        .toList();
  }

  @Test
  void anEnvelopeTheHostDoesNotAckIsSentAgainThenReportedAsAnError() {
    WsClient host = ws();
    String sessionId = run("nobody acks");
    List<JsonObject> frames =
        Await.result(
            host.awaitTopic(
                "agent:status",
                status ->
                    "ACK_TIMEOUT"
                        .equals(
                            status.getJsonObject("detail", new JsonObject()).getString("code"))));
    JsonObject failure =
        frames.stream()
            .filter(frame -> "agent:status".equals(frame.getString("topic")))
            .map(frame -> frame.getJsonObject("payload"))
            .filter(
                status ->
                    "ACK_TIMEOUT"
                        .equals(status.getJsonObject("detail", new JsonObject()).getString("code")))
            .findFirst()
            .orElseThrow();
    assertEquals("error", failure.getString("state"));
    assertEquals(sessionId, failure.getString("sessionId"));
    long seq = failure.getJsonObject("detail").getLong("seq");
    long deliveries =
        envelopes(frames).stream().filter(envelope -> envelope.getLong("seq") == seq).count();
    assertEquals(2, deliveries, "sent once and re-sent once (CANVAS_AGENT_ACK_RETRIES=1)");
  }

  @Test
  void aHostThatAcksGetsEachEnvelopeOnce() {
    WsClient host = ws().autoAck();
    String sessionId = run("acked");
    List<JsonObject> frames =
        Await.result(host.awaitTopic("agent:status", status -> isFinal(status, sessionId)));
    List<Long> seqs = envelopes(frames).stream().map(envelope -> envelope.getLong("seq")).toList();
    assertEquals(seqs.stream().distinct().toList(), seqs);
    // Past the ack timeout, still nothing re-sent and no failure: a second run's end proves time
    // has passed.
    String second = run("acked again");
    List<JsonObject> later =
        Await.result(host.awaitTopic("agent:status", status -> isFinal(status, second)));
    assertTrue(
        later.stream()
            .noneMatch(
                frame ->
                    "agent:status".equals(frame.getString("topic"))
                        && "ACK_TIMEOUT"
                            .equals(
                                frame
                                    .getJsonObject("payload")
                                    .getJsonObject("detail", new JsonObject())
                                    .getString("code"))));
  }

  @Test
  void anSseClientResumesAfterTheLastEventItSaw() {
    SseClient first = server.events(roomId);
    String sessionId = run("resume me");
    List<SseEvent> all =
        Await.result(
            first.awaitEvent(
                event -> event.event().equals("agent:status") && isFinal(event.data(), sessionId)));
    Await.result(first.close());
    SseEvent cut =
        all.stream()
            .filter(event -> event.event().equals("agent:action"))
            .findFirst()
            .orElseThrow();
    List<SseEvent> expected = all.subList(all.indexOf(cut) + 1, all.size());

    SseClient resumed =
        Await.result(
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + roomId + "/events",
                Map.of("Last-Event-ID", cut.id())));
    List<SseEvent> replayed =
        Await.result(
            resumed.awaitEvent(
                event -> event.id() != null && event.id().equals(all.get(all.size() - 1).id())));
    assertEquals(expected, replayed, "exactly the events after the cut, in order");
    Await.result(resumed.close());
  }

  @Test
  void aClientTooFarBehindIsResyncedWithTheBoard() {
    SseClient first = server.events(roomId);
    String sessionId = run("resync me");
    Await.result(
        first.awaitEvent(
            event -> event.event().equals("agent:status") && isFinal(event.data(), sessionId)));
    Await.result(first.close());
    SseClient stale =
        Await.result(
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + roomId + "/events",
                Map.of("Last-Event-ID", "0badbeef-7")));
    List<SseEvent> events =
        Await.result(stale.awaitEvent(event -> event.event().equals("canvas:resync")));
    JsonObject resync = events.get(events.size() - 1).data();
    JsonObject board = server.board(roomId);
    assertEquals(board.getLong("revision"), resync.getLong("revision"));
    assertEquals(board.getJsonArray("records").size(), resync.getJsonArray("records").size());
    Await.result(stale.close());
  }

  @Test
  void badFramesAreRefusedWithANamedErrorAndTheConnectionLives() {
    WsClient host = ws();
    WsClient other = ws();
    host.sendText("not json");
    awaitError(host, "INVALID_FRAME");
    host.send("agent:action", new JsonObject().put("v", "tldraw-actions/1"));
    awaitError(host, "UNKNOWN_TOPIC");
    host.send("scheduler.submit", new JsonObject());
    host.send(
        "canvas:viewport",
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", -1).put("h", 5)));
    awaitError(host, "INVALID_PAYLOAD");
    host.send(
        "agent:ack",
        new JsonObject().put("sessionId", "s").put("seq", 1).put("clientId", other.clientId()));
    awaitError(host, "FORGED_CLIENT_ID");
    host.send(
        "agent:ack",
        new JsonObject().put("sessionId", "never").put("seq", 99).put("clientId", host.clientId()));
    awaitError(host, "ACK_UNKNOWN");
    JsonObject rect = new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1);
    other.send(
        "agent:screenshot",
        new JsonObject()
            .put("requestId", "r1")
            .put("bounds", rect)
            .put("viewport", rect)
            .put(
                "image",
                new JsonObject()
                    .put("mime", "image/png")
                    .put("dataUrl", "data:image/png;base64,AAAA")
                    .put("bytes", 3)));
    awaitError(other, "NOT_HOST");
    other.send(
        "agent:screenshot",
        new JsonObject()
            .put("requestId", "r2")
            .put(
                "image",
                new JsonObject()
                    .put("mime", "image/png")
                    .put("dataUrl", "data:image/png;base64,AAAA")));
    awaitError(other, "INVALID_PAYLOAD");
    JsonObject purple =
        ShapeRecords.shape(
            "shape:p", "geo", 0, 0, "a1", ShapeRecords.geoProps("rectangle", 10, 10, ""));
    purple.getJsonObject("props").put("color", "purple");
    host.send(
        "canvas:change",
        new JsonObject().put("baseRevision", 0).put("put", new JsonArray().add(purple)));
    awaitError(host, "INVALID_RECORD");
    assertEquals(0, server.board(roomId).getLong("revision"));

    // Still connected and served: a valid edit from the same socket reaches both clients.
    JsonObject box =
        ShapeRecords.shape(
            "shape:ok", "geo", 0, 0, "a1", ShapeRecords.geoProps("rectangle", 10, 10, "ok"));
    host.send(
        "canvas:change",
        new JsonObject().put("baseRevision", 0).put("put", new JsonArray().add(box)));
    Await.result(
        other.awaitTopic(
            "canvas:change",
            change -> ("person:" + host.clientId()).equals(change.getString("author"))));
    assertEquals(1, server.board(roomId).getLong("revision"));
  }

  @Test
  void viewportsAreKeptForTheContextBuilder() {
    WsClient host = ws();
    JsonObject viewport =
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 10).put("y", 20).put("w", 800).put("h", 600))
            .put("selection", new JsonArray().add("shape:a"));
    host.send("canvas:viewport", viewport);
    // The bus answer reflects it once the socket's frame is handled; a ping frame orders after it.
    host.send(
        "agent:ack",
        new JsonObject().put("sessionId", "none").put("seq", 1).put("clientId", host.clientId()));
    awaitError(host, "ACK_UNKNOWN");
    JsonObject viewports =
        Await.result(
                vertx
                    .eventBus()
                    .<JsonObject>request(
                        Address.BRIDGE_VIEWPORTS.address(), new JsonObject().put("roomId", roomId)))
            .body();
    assertEquals(host.clientId(), viewports.getString("hostClientId"));
    JsonObject kept = viewports.getJsonArray("viewports").getJsonObject(0);
    assertEquals(viewport.getJsonObject("bounds"), kept.getJsonObject("bounds"));
    assertTrue(kept.getBoolean("host"));
  }

  @Test
  void anOversizedMessageClosesOnlyThatConnection() {
    WsClient big = ws();
    WsClient bystander = ws().autoAck();
    big.send("canvas:viewport", new JsonObject().put("pad", "x".repeat(70_000)));
    assertEquals(1009, Await.result(big.closed()).intValue());
    String sessionId = run("still serving");
    Await.result(bystander.awaitTopic("agent:status", status -> isFinal(status, sessionId)));
  }

  @Test
  void aFloodIsRateLimitedWithoutDisturbingAnotherClient() {
    WsClient flooder = ws();
    WsClient bystander = ws();
    JsonObject viewport =
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1));
    for (int i = 0; i < 200; i++) {
      flooder.send("canvas:viewport", viewport);
    }
    awaitError(flooder, "RATE_LIMITED");
    String sessionId = run("bystander unaffected");
    List<JsonObject> frames =
        Await.result(bystander.awaitTopic("agent:status", status -> isFinal(status, sessionId)));
    assertEquals(3, envelopes(frames).size());
    assertTrue(frames.stream().noneMatch(frame -> "error".equals(frame.getString("topic"))));
  }

  static void awaitError(WsClient client, String code) {
    Await.result(client.awaitTopic("error", error -> code.equals(error.getString("code"))));
  }
}
