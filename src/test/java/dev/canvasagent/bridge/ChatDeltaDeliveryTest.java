package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code agent:chat} deltas on the room WebSocket: delivered live in the model's order, without an
 * event id, and never replayed to a client that resumes (the messages' finals are).
 */
@ExtendWith(VertxExtension.class)
class ChatDeltaDeliveryTest {
  Vertx vertx;
  TestServer server;
  String roomId;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = TestServer.start(vertx, java.util.Optional.empty());
    roomId = "chat-ws-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  @Test
  void deltasGoOutLiveInOrderAndOnlyTheFinalsAreReplayed() {
    WsClient live = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    String sessionId =
        server
            .postRun(new JsonObject().put("roomId", roomId).put("message", "/poster"))
            .bodyAsJsonObject()
            .getString("sessionId");
    List<JsonObject> frames =
        Await.result(
            live.awaitTopic(
                "agent:status",
                status ->
                    sessionId.equals(status.getString("sessionId"))
                        && "done".equals(status.getString("state"))));
    List<JsonObject> chat =
        frames.stream().filter(frame -> "agent:chat".equals(frame.getString("topic"))).toList();
    List<JsonObject> deltas =
        chat.stream().filter(frame -> frame.getJsonObject("payload").containsKey("delta")).toList();
    assertFalse(deltas.isEmpty());
    deltas.forEach(frame -> assertNull(frame.getValue("id"), "a delta has no event id: " + frame));
    List<JsonObject> finals =
        chat.stream()
            .filter(frame -> frame.getJsonObject("payload").containsKey("message"))
            .toList();
    List<String> texts =
        finals.stream()
            .map(f -> f.getJsonObject("payload").getJsonObject("message").getString("text"))
            .toList();
    assertEquals(3, texts.size(), texts.toString());
    assertTrue(texts.get(0).startsWith("Drafting a brutalist poster"), texts.get(0));
    assertTrue(texts.get(1).startsWith("Brutalist: heavy type"), texts.get(1));
    assertTrue(texts.get(2).startsWith("Poster drafted"), texts.get(2));
    finals.forEach(frame -> assertTrue(frame.getValue("id") != null, "a final has an event id"));

    // Resumed from the first event of the run: the finals again, no delta.
    String first =
        frames.stream()
            .filter(frame -> frame.getValue("id") != null)
            .findFirst()
            .orElseThrow()
            .getString("id");
    WsClient resumed =
        Await.result(WsClient.connect(vertx, server.port(), roomId, "lastEventId=" + first));
    List<JsonObject> replayed =
        Await.result(
            resumed.awaitTopic(
                "agent:status",
                status ->
                    sessionId.equals(status.getString("sessionId"))
                        && "done".equals(status.getString("state"))));
    List<JsonObject> replayedChat =
        replayed.stream().filter(frame -> "agent:chat".equals(frame.getString("topic"))).toList();
    assertEquals(3, replayedChat.size(), "the three finals: " + replayedChat);
    assertTrue(
        replayedChat.stream()
            .noneMatch(frame -> frame.getJsonObject("payload").containsKey("delta")));
    Await.result(resumed.close());
    Await.result(live.close());
  }
}
