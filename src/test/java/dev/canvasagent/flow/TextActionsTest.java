package dev.canvasagent.flow;

import static dev.canvasagent.flow.PartialEnvelopesTest.actionId;
import static dev.canvasagent.flow.PartialEnvelopesTest.envelopes;
import static dev.canvasagent.flow.PartialEnvelopesTest.isPartial;
import static dev.canvasagent.flow.PartialEnvelopesTest.runToEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A model without tool calls writes its actions as an actions JSON in its text ({@code /json} and
 * {@code /json-malformed} in conf/fake-model.json): each action lands as it completes, the prose
 * around the JSON is the chat, and JSON that cannot be read ends the run in error, keeping what landed.
 */
@ExtendWith(VertxExtension.class)
class TextActionsTest {
  TestServer server;

  @BeforeEach
  void start(Vertx vertx) {
    server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "1")));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  @Test
  void actionsWrittenAsJsonTextAreAppliedAndTheProseIsTheChat() {
    List<SseEvent> events = runToEnd(server, "text-json", "/json please");
    JsonObject done = events.get(events.size() - 1).data();
    assertEquals("done", done.getString("state"), done.encode());
    assertEquals(3, done.getJsonObject("detail").getInteger("applied"), "two shapes and a think");
    String runId = done.getJsonObject("detail").getString("runId");

    List<JsonObject> finals =
        envelopes(events).stream().filter(envelope -> !isPartial(envelope)).toList();
    assertEquals(
        List.of(runId + ":t0", runId + ":t1"),
        finals.stream().map(PartialEnvelopesTest::actionId).toList());
    assertTrue(
        envelopes(events).stream()
            .filter(PartialEnvelopesTest::isPartial)
            .allMatch(partial -> actionId(partial).startsWith(runId + ":t")),
        "partials carry the same stable ids");

    List<JsonObject> records =
        server.board("text-json").getJsonArray("records").stream()
            .map(JsonObject.class::cast)
            .toList();
    assertEquals(
        List.of("shape:json-box", "shape:json-note"),
        records.stream().map(record -> record.getString("id")).sorted().toList());
    assertTrue(
        records.stream().anyMatch(record -> record.encode().contains("Café \\\"A\\\"")),
        "the escaped label, decoded");
    assertTrue(records.stream().anyMatch(record -> record.encode().contains("Read from text ✓")));

    List<String> chat =
        events.stream()
            .filter(event -> event.event().equals("agent:chat"))
            .filter(event -> event.data().containsKey("message"))
            .map(event -> event.data().getJsonObject("message").getString("text"))
            .toList();
    assertEquals(
        List.of("Here is the plan.", "Two shapes, written as an actions JSON.", "Done."),
        chat,
        "in the model's order: the prose before the JSON (without its fence), the think action in"
            + " it, the prose after it");
  }

  @Test
  void malformedJsonEndsTheRunInErrorNamingTheProblemAndWhatLandedStays() {
    List<SseEvent> events = runToEnd(server, "text-bad", "/json-malformed");
    JsonObject last = events.get(events.size() - 1).data();
    assertEquals("error", last.getString("state"));
    JsonObject detail = last.getJsonObject("detail");
    assertEquals("ACTIONS_MALFORMED", detail.getString("code"));
    assertTrue(
        detail.getString("reason").contains("invalid JSON near byte"), detail.getString("reason"));
    assertTrue(
        detail.getString("reason").contains("Unexpected character (','"),
        detail.getString("reason"));
    assertEquals(1, detail.getInteger("applied"));

    JsonObject board = server.board("text-bad");
    assertEquals(1L, board.getLong("revision"));
    assertEquals("shape:kept", board.getJsonArray("records").getJsonObject(0).getString("id"));
  }
}
