package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent's chat streams in the model's order: {@code /poster} writes its prose, then a {@code
 * think}, six shapes and a {@code message}. Each goes out as deltas with a stable message id as it is
 * written, then whole ({@code final}), in that order, and the session's history a resume shows has
 * the same order.
 */
@ExtendWith(VertxExtension.class)
abstract class ChatStreamContract {
  static final String PROSE =
      "Drafting a brutalist poster: a hero headline, a supporting block, a vertical divider and"
          + " three sticky notes.";
  static final String THINK =
      "Brutalist: heavy type, hard edges, flat orange and charcoal, no decoration. Headline and"
          + " block on the left, a thick divider, notes on the right.";
  static final String MESSAGE = "Poster drafted: headline, block, divider, three notes.";

  TestServer server;
  String roomId;

  abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void start(Vertx vertx) {
    server = TestServer.start(vertx, database());
    roomId = "chat-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  @Test
  void thePostersChatStreamsInTheModelsOrderAndTheHistoryKeepsIt() {
    List<SseEvent> events = PartialEnvelopesTest.runToEnd(server, roomId, "/poster");
    JsonObject done = events.get(events.size() - 1).data();
    assertEquals("done", done.getString("state"), done.encode());
    String sessionId = done.getString("sessionId");
    String runId = done.getJsonObject("detail").getString("runId");

    List<JsonObject> chat =
        events.stream()
            .filter(event -> event.event().equals("agent:chat"))
            .map(SseEvent::data)
            .toList();
    List<JsonObject> finals = chat.stream().filter(c -> c.containsKey("message")).toList();
    assertEquals(
        List.of(PROSE, THINK, MESSAGE),
        finals.stream().map(c -> c.getJsonObject("message").getString("text")).toList(),
        "the model's order");
    assertEquals(List.of(runId + ":p0", runId + ":0", runId + ":7"), messageIds(finals));
    finals.forEach(
        c -> {
          assertTrue(c.getBoolean("final"), c.encode());
          assertEquals(c.getJsonObject("message").getString("text"), c.getString("text"));
        });

    // Each message grew by deltas before it was whole, and its deltas add up to its text.
    Map<String, StringBuilder> written = new LinkedHashMap<>();
    Map<String, Integer> deltas = new LinkedHashMap<>();
    List<String> begun = new ArrayList<>();
    for (JsonObject c : chat) {
      String id = c.getString("messageId");
      if (c.containsKey("delta")) {
        assertNull(c.getValue("message"), "a delta carries no message for older clients");
        if (!written.containsKey(id)) {
          begun.add(id);
        }
        written.computeIfAbsent(id, key -> new StringBuilder()).append(c.getString("delta"));
        deltas.merge(id, 1, Integer::sum);
      } else {
        assertEquals(c.getString("text"), String.valueOf(written.get(id)), "deltas of " + id);
      }
    }
    assertEquals(messageIds(finals), begun, "begun in the same order");
    deltas.forEach((id, count) -> assertTrue(count > 1, id + " streamed in " + count));

    // The prose is whole before the first shape lands: it is not held to the end of the run.
    int proseFinal = indexOf(events, e -> e.event().equals("agent:chat") && isFinal(e, PROSE));
    int firstShape =
        indexOf(
            events,
            e -> e.event().equals("agent:action") && !e.data().getBoolean("partial", false));
    assertTrue(proseFinal < firstShape, proseFinal + " < " + firstShape);

    var session = server.get("/api/sessions/" + sessionId + "?roomId=" + roomId);
    assertEquals(200, session.statusCode(), session.bodyAsString());
    List<String> history =
        session.bodyAsJsonObject().getJsonArray("chat").stream()
            .map(JsonObject.class::cast)
            .map(m -> m.getString("role") + ": " + m.getString("text"))
            .toList();
    assertEquals(
        List.of(
            "user: /poster", "assistant: " + PROSE, "assistant: " + THINK, "assistant: " + MESSAGE),
        history);
    // Each names its run, so a page that reloads still knows which run an Undo reverts.
    assertEquals(
        List.of(runId, runId, runId, runId),
        session.bodyAsJsonObject().getJsonArray("chat").stream()
            .map(m -> ((JsonObject) m).getString("runId"))
            .toList());
  }

  @Test
  void aRunWithoutProseSaysNoEmptyMessage() {
    List<SseEvent> events = PartialEnvelopesTest.runToEnd(server, roomId, "draw a red box");
    assertFalse(
        events.stream()
            .filter(event -> event.event().equals("agent:chat"))
            .map(SseEvent::data)
            .anyMatch(
                c ->
                    c.containsKey("delta") && c.getString("delta").isEmpty()
                        || c.containsKey("message")
                            && c.getJsonObject("message").getString("text").isEmpty()),
        "no empty delta or message");
  }

  private static boolean isFinal(SseEvent event, String text) {
    return event.data().containsKey("message")
        && text.equals(event.data().getJsonObject("message").getString("text"));
  }

  private static int indexOf(List<SseEvent> events, java.util.function.Predicate<SseEvent> test) {
    for (int i = 0; i < events.size(); i++) {
      if (test.test(events.get(i))) {
        return i;
      }
    }
    return Integer.MAX_VALUE;
  }

  private static List<String> messageIds(List<JsonObject> chat) {
    return chat.stream().map(c -> c.getString("messageId")).toList();
  }
}
