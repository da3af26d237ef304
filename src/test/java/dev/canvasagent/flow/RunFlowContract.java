package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The thin path end to end, over real HTTP and SSE: a run posted for a room streams status, chat and
 * action envelopes to the room's subscribers, and the board it leaves is the one the envelopes describe.
 */
@ExtendWith(VertxExtension.class)
abstract class RunFlowContract {
  TestServer server;
  String roomId;

  abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void start(Vertx vertx) {
    server = TestServer.start(vertx, database());
    roomId = "room-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  static Predicate<SseEvent> finalStatusOf(String sessionId) {
    return event ->
        event.event().equals("agent:status")
            && event.data().getString("sessionId").equals(sessionId)
            && List.of("done", "error", "canceled").contains(event.data().getString("state"));
  }

  /** The status that ends the run {@code runId}: {@code scheduled} (follow-ups to come), or final. */
  static Predicate<SseEvent> endOf(String runId) {
    return event ->
        event.event().equals("agent:status")
            && runId.equals(
                event.data().getJsonObject("detail", new JsonObject()).getString("runId"))
            && List.of("scheduled", "done", "error", "canceled")
                .contains(event.data().getString("state"))
            && !event.data().getJsonObject("detail").containsKey("position");
  }

  List<SseEvent> runToEnd(SseClient sse, JsonObject request) {
    var response = server.postRun(request);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
    return Await.result(sse.awaitEvent(finalStatusOf(sessionId))).stream()
        .filter(event -> sessionId.equals(event.data().getString("sessionId")))
        .toList();
  }

  @Test
  void aRunStreamsStatusesChatAndEnvelopesWithIncreasingSeqThenDone() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(
            sse, new JsonObject().put("roomId", roomId).put("message", "a box for the roadmap"));

    List<String> states =
        events.stream()
            .filter(e -> e.event().equals("agent:status"))
            .map(e -> e.data().getString("state"))
            .toList();
    assertEquals(List.of("waiting_context", "calling_model", "streaming", "done"), states);

    List<SseEvent> envelopes =
        events.stream().filter(e -> e.event().equals("agent:action")).toList();
    assertEquals(3, envelopes.size(), "the default scenario creates three shapes");
    long previousSeq = 0;
    for (SseEvent envelope : envelopes) {
      JsonObject data = envelope.data();
      assertEquals("tldraw-actions/1", data.getString("v"));
      assertTrue(data.getLong("seq") > previousSeq, "seq strictly increases");
      assertTrue(
          envelope.id() != null && envelope.id().matches("[0-9a-f]{8}-[0-9]+"),
          "a resumable room event id: " + envelope.id());
      previousSeq = data.getLong("seq");
      JsonArray actions = data.getJsonArray("actions");
      assertEquals(1, actions.size());
      assertEquals("create_shape", actions.getJsonObject(0).getString("name"));
      assertFalse(actions.getJsonObject(0).getString("id").isBlank());
      assertTrue(data.getLong("ts") > 0);
      assertEquals(1, data.getJsonObject("diff").getJsonArray("put").size());
    }

    assertTrue(
        events.stream()
            .anyMatch(
                e ->
                    e.event().equals("agent:chat")
                        && e.data().containsKey("message")
                        && e.data().getJsonObject("message").getString("role").equals("assistant")),
        "think became chat");
    Await.result(sse.close());
  }

  @Test
  void theBoardHoldsExactlyWhatTheEnvelopesPut() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "a labeled box"));
    List<JsonObject> put =
        events.stream()
            .filter(e -> e.event().equals("agent:action"))
            .flatMap(
                e ->
                    e.data().getJsonObject("diff").getJsonArray("put").stream()
                        .map(JsonObject.class::cast))
            .toList();
    long lastRev =
        events.stream()
            .filter(e -> e.event().equals("agent:action"))
            .mapToLong(e -> e.data().getLong("rev"))
            .max()
            .orElseThrow();

    JsonObject board = server.board(roomId);
    assertEquals(lastRev, board.getLong("revision"));
    assertEquals(put.size(), board.getJsonArray("records").size());
    for (JsonObject record : put) {
      assertTrue(
          board.getJsonArray("records").contains(record), "board holds " + record.getString("id"));
    }
    JsonObject label = put.get(0).getJsonObject("props").getJsonObject("richText");
    assertEquals(
        "a labeled box",
        label
            .getJsonArray("content")
            .getJsonObject(0)
            .getJsonArray("content")
            .getJsonObject(0)
            .getString("text"));

    JsonObject revisions = server.get("/api/rooms/" + roomId + "/revisions").bodyAsJsonObject();
    assertEquals(
        put.size(),
        revisions.getJsonArray("revisions").size(),
        "one revision per committed action");
    Await.result(sse.close());
  }

  @Test
  void runsInTheSameSessionContinueItsSeq() {
    SseClient sse = server.events(roomId);
    List<SseEvent> first =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "one"));
    String sessionId = first.get(0).data().getString("sessionId");
    long lastSeq =
        first.stream()
            .filter(e -> e.event().equals("agent:action"))
            .mapToLong(e -> e.data().getLong("seq"))
            .max()
            .orElseThrow();

    var response =
        server.postRun(
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "two")
                .put("sessionId", sessionId));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    List<SseEvent> all =
        Await.result(
            sse.awaitEvent(
                event ->
                    event.event().equals("agent:status")
                        && event.data().getString("state").equals("done")
                        && event
                            .data()
                            .getJsonObject("detail")
                            .getString("runId")
                            .equals(response.bodyAsJsonObject().getString("runId"))));
    List<Long> seqs =
        all.stream()
            .filter(e -> e.event().equals("agent:action"))
            .map(e -> e.data().getLong("seq"))
            .toList();
    for (int i = 1; i < seqs.size(); i++) {
      assertTrue(seqs.get(i) > seqs.get(i - 1));
    }
    assertTrue(
        seqs.size() > 3 && seqs.get(3) > lastSeq,
        "the second run's envelopes continue the seq: " + seqs);
    // The same note and caption again are duplicate creates: ignored, and counted.
    JsonObject done = all.get(all.size() - 1).data().getJsonObject("detail");
    assertEquals(2, done.getInteger("deduped"), done.encode());
    assertEquals(4, seqs.size(), "one new box, the duplicates left out");
    Await.result(sse.close());
  }

  @Test
  void invalidActionsAreDroppedAndTheValidOnesStillLand() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "/invalid please"));
    SseEvent done = events.get(events.size() - 1);
    assertEquals("done", done.data().getString("state"));
    assertEquals(
        2,
        done.data().getJsonObject("detail").getInteger("dropped"),
        "bad params and an unknown verb");
    assertEquals(1, events.stream().filter(e -> e.event().equals("agent:action")).count());
    assertEquals(1, server.board(roomId).getJsonArray("records").size());
    Await.result(sse.close());
  }

  @Test
  void aModelErrorEndsTheRunWithErrorAndAReason() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "/fail now"));
    SseEvent last = events.get(events.size() - 1);
    assertEquals("error", last.data().getString("state"));
    assertEquals("MODEL_ERROR", last.data().getJsonObject("detail").getString("code"));
    assertTrue(
        last.data().getJsonObject("detail").getString("reason").contains("overloaded_error"));
    assertEquals(0L, server.board(roomId).getLong("revision"), "nothing committed");
    Await.result(sse.close());
  }

  @Test
  void everySubscriberOfTheRoomSeesTheSameEnvelopesAndOtherRoomsSeeNone() {
    SseClient first = server.events(roomId);
    SseClient second = server.events(roomId);
    SseClient elsewhere = server.events(roomId + "-other");
    List<SseEvent> seenByFirst =
        runToEnd(first, new JsonObject().put("roomId", roomId).put("message", "shared"));
    String sessionId = seenByFirst.get(0).data().getString("sessionId");
    List<SseEvent> seenBySecond = Await.result(second.awaitEvent(finalStatusOf(sessionId)));
    assertEquals(
        seenByFirst.stream()
            .filter(e -> e.event().equals("agent:action"))
            .map(SseEvent::data)
            .toList(),
        seenBySecond.stream()
            .filter(e -> e.event().equals("agent:action"))
            .map(SseEvent::data)
            .toList());
    // The other room's stream is open and subscribed; a run there arrives, and nothing from this
    // room did.
    var other =
        server.postRun(new JsonObject().put("roomId", roomId + "-other").put("message", "x"));
    String otherSession = other.bodyAsJsonObject().getString("sessionId");
    List<SseEvent> seenElsewhere = Await.result(elsewhere.awaitEvent(finalStatusOf(otherSession)));
    assertTrue(
        seenElsewhere.stream().allMatch(e -> e.data().getString("sessionId").equals(otherSession)));
    Await.result(first.close());
    Await.result(second.close());
    Await.result(elsewhere.close());
  }

  @Test
  void aSessionOfAnotherRoomIsRefusedWith409AndNothingRuns() {
    SseClient sse = server.events(roomId);
    List<SseEvent> first =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "mine"));
    String sessionId = first.get(0).data().getString("sessionId");
    String otherRoom = roomId + "-b";
    JsonObject before = server.board(otherRoom);

    var response =
        server.postRun(
            new JsonObject()
                .put("roomId", otherRoom)
                .put("message", "hijack")
                .put("sessionId", sessionId));
    assertEquals(409, response.statusCode(), response.bodyAsString());
    assertEquals(
        "SESSION_ROOM_MISMATCH",
        response.bodyAsJsonObject().getJsonObject("error").getString("code"));
    assertEquals(before, server.board(otherRoom));
    Await.result(sse.close());
  }
}
