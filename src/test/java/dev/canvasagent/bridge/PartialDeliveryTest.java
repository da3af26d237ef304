package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Partial envelopes are delivered once and forgotten: the host owes no ack for them (so none is
 * re-sent or times out), an ack it sends anyway is accepted, and a reconnecting client is replayed
 * the final envelopes only.
 */
@ExtendWith(VertxExtension.class)
class PartialDeliveryTest {
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
                    "CANVAS_AGENT_PARTIAL_INTERVAL_MS", "1",
                    "CANVAS_AGENT_ACK_TIMEOUT_MS", "300",
                    "CANVAS_AGENT_ACK_RETRIES", "1")));
    roomId = "partial-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  String run(String message) {
    return server
        .postRun(new JsonObject().put("roomId", roomId).put("message", message))
        .bodyAsJsonObject()
        .getString("sessionId");
  }

  static List<JsonObject> payloads(List<JsonObject> frames, String topic) {
    return frames.stream()
        .filter(frame -> topic.equals(frame.getString("topic")))
        .map(frame -> frame.getJsonObject("payload"))
        .toList();
  }

  static boolean isAckTimeout(JsonObject status) {
    return "ACK_TIMEOUT".equals(status.getJsonObject("detail", new JsonObject()).getString("code"));
  }

  @Test
  void aHostThatNeverAcksTimesOutOnFinalEnvelopesOnlyAndGetsEachPartialOnce() {
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId));
    String sessionId = run("nobody acks");
    List<JsonObject> untilDone =
        Await.result(
            host.awaitTopic(
                "agent:status",
                status ->
                    sessionId.equals(status.getString("sessionId"))
                        && "done".equals(status.getString("state"))));
    Set<Long> finalSeqs =
        payloads(untilDone, "agent:action").stream()
            .filter(envelope -> !envelope.getBoolean("partial", false))
            .map(envelope -> envelope.getLong("seq"))
            .collect(Collectors.toSet());
    long lastFinal = finalSeqs.stream().mapToLong(Long::longValue).max().orElseThrow();

    // Timers fire in deadline order: by the last final's timeout, an earlier partial's would have
    // fired too.
    List<JsonObject> frames =
        Await.result(
            host.awaitTopic(
                "agent:status",
                status ->
                    isAckTimeout(status)
                        && status.getJsonObject("detail").getLong("seq") == lastFinal));
    Set<Long> timedOut =
        payloads(frames, "agent:status").stream()
            .filter(PartialDeliveryTest::isAckTimeout)
            .map(status -> status.getJsonObject("detail").getLong("seq"))
            .collect(Collectors.toSet());
    assertEquals(finalSeqs, timedOut, "every final envelope timed out, no partial did");

    List<JsonObject> partials =
        payloads(frames, "agent:action").stream()
            .filter(envelope -> envelope.getBoolean("partial", false))
            .toList();
    assertFalse(partials.isEmpty());
    assertEquals(
        partials.size(),
        partials.stream().map(envelope -> envelope.getLong("seq")).distinct().count(),
        "no partial is re-sent");
    for (long seq : finalSeqs) {
      assertEquals(
          2,
          payloads(frames, "agent:action").stream()
              .filter(envelope -> envelope.getLong("seq") == seq)
              .count(),
          "a final envelope is sent, then re-sent once");
    }
  }

  @Test
  void aHostThatAcksPartialsTooIsNeitherRefusedNorReminded() {
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    String first = run("acked");
    Await.result(
        host.awaitTopic(
            "agent:status",
            status ->
                first.equals(status.getString("sessionId"))
                    && "done".equals(status.getString("state"))));
    // A second run's end is past the first's ack timeouts.
    String second = run("acked again");
    List<JsonObject> frames =
        Await.result(
            host.awaitTopic(
                "agent:status",
                status ->
                    second.equals(status.getString("sessionId"))
                        && "done".equals(status.getString("state"))));
    assertTrue(
        payloads(frames, "agent:action").stream()
            .anyMatch(envelope -> envelope.getBoolean("partial", false)));
    assertTrue(
        frames.stream().noneMatch(frame -> "error".equals(frame.getString("topic"))),
        "no ack was refused");
    assertTrue(
        payloads(frames, "agent:status").stream().noneMatch(PartialDeliveryTest::isAckTimeout));
    List<String> sent =
        payloads(frames, "agent:action").stream()
            .map(envelope -> envelope.getString("sessionId") + "#" + envelope.getLong("seq"))
            .toList();
    assertEquals(sent.stream().distinct().toList(), sent, "each envelope once");
  }

  @Test
  void aReconnectingClientIsReplayedTheFinalEnvelopesNotThePartials() {
    SseClient first = server.events(roomId);
    String sessionId = run("resume me");
    List<SseEvent> all =
        Await.result(
            first.awaitEvent(
                event ->
                    event.event().equals("agent:status")
                        && sessionId.equals(event.data().getString("sessionId"))
                        && "done".equals(event.data().getString("state"))));
    Await.result(first.close());
    assertTrue(all.stream().anyMatch(event -> event.data().getBoolean("partial", false)));
    SseEvent cut = all.stream().filter(event -> event.id() != null).findFirst().orElseThrow();
    List<SseEvent> expected =
        all.subList(all.indexOf(cut) + 1, all.size()).stream()
            .filter(event -> !event.data().getBoolean("partial", false))
            // A chat delta is not replayed either: its message's final is.
            .filter(event -> !event.data().containsKey("delta"))
            .toList();

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
    assertEquals(expected, replayed, "the events after the cut, partials left out");
    Await.result(resumed.close());
  }
}
