package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scripted tour through every verb, against PostgreSQL: every client of the room sees the same
 * envelopes, the revision history replays to the board, and a restarted server serves the same board.
 */
@ExtendWith(VertxExtension.class)
class BoardTourTest {
  static final String ROOM = "tour-room";
  DatabaseConfig database;

  @BeforeEach
  void createSchema() {
    database = TestDatabase.freshSchema();
  }

  @AfterEach
  void dropSchema() {
    TestDatabase.drop(database);
  }

  @Test
  void theTourLeavesOneBoardEveryoneAgreesOn(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.of(database));
    SseClient first = server.events(ROOM);
    SseClient second = server.events(ROOM);
    var accepted =
        server.postRun(new JsonObject().put("roomId", ROOM).put("message", "/tour please"));
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    List<SseEvent> seenByFirst =
        Await.result(first.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));
    List<SseEvent> seenBySecond =
        Await.result(second.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));

    JsonObject done = seenByFirst.get(seenByFirst.size() - 1).data();
    assertEquals("done", done.getString("state"), done.encode());
    // The tour asks for two follow-ups (add_detail, review): it ends `scheduled`, and they run
    // after it; the last leaves the tour's todo open, which earns the request an open_todos pass.
    String tourRunId = accepted.bodyAsJsonObject().getString("runId");
    JsonObject tourEnd =
        seenByFirst.stream()
            .filter(event -> event.event().equals("agent:status"))
            .map(SseEvent::data)
            .filter(data -> data.getString("state").equals("scheduled"))
            .filter(data -> tourRunId.equals(data.getJsonObject("detail").getString("runId")))
            .findFirst()
            .orElseThrow();
    assertEquals(0, tourEnd.getJsonObject("detail").getInteger("dropped"), tourEnd.encode());
    assertEquals(
        2,
        tourEnd.getJsonObject("detail").getJsonArray("followupsQueued").size(),
        tourEnd.encode());
    assertEquals(
        3,
        done.getJsonObject("detail").getInteger("followups"),
        "and open_todos for the todo it leaves open: " + done.encode());
    List<JsonObject> envelopes = actions(seenByFirst);
    assertEquals(envelopes, actions(seenBySecond), "both clients saw the same envelopes");

    Set<String> verbs = new HashSet<>();
    envelopes.forEach(
        envelope ->
            envelope
                .getJsonArray("actions")
                .forEach(action -> verbs.add(((JsonObject) action).getString("name"))));
    // Every call of the tour's script whose verb changes the board or steers the agent reaches
    // every client as an agent:action; chat verbs (think, message) are posted on agent:chat, and
    // client verbs (set_viewport) move the host's camera: an SSE client is never the host, so it
    // never sees them.
    ActionCatalog catalog = ActionCatalog.standard();
    Map<String, VerbKind> kinds = new TreeMap<>();
    FakeScenarios.load()
        .scripted("/tour please")
        .orElseThrow()
        .calls()
        .forEach(
            call -> {
              String name = call.getString("name");
              kinds.put(name, catalog.entry(name).orElseThrow().verb().kind());
            });
    Set<String> seen =
        kinds.keySet().stream()
            .filter(name -> Set.of(VerbKind.BOARD, VerbKind.AGENT).contains(kinds.get(name)))
            .collect(Collectors.toSet());
    assertTrue(seen.size() > 15, "the tour shows most verbs: " + kinds);
    assertTrue(verbs.containsAll(seen), verbs + " has every one of " + seen);
    for (String name : kinds.keySet()) {
      if (kinds.get(name) == VerbKind.CLIENT) {
        assertTrue(!verbs.contains(name), name + " is not in " + verbs);
      }
    }
    assertTrue(
        board(server).stream().anyMatch(record -> "group".equals(record.getString("type"))),
        "the pair is grouped");

    // Applying the envelopes' diffs in seq order gives the server's board; so does replaying its
    // history.
    Board fromEnvelopes = Board.empty(ROOM);
    for (JsonObject envelope : envelopes) {
      if (envelope.containsKey("diff")) {
        fromEnvelopes =
            fromEnvelopes.apply(
                RecordDiff.fromJson(envelope.getJsonObject("diff")), envelope.getLong("rev"));
      }
    }
    JsonObject board = server.board(ROOM);
    assertEquals(recordsById(board.getJsonArray("records")), fromEnvelopes.records());
    TldrawOracle.assertValid(fromEnvelopes.records().values());
    List<JsonObject> everyPut =
        envelopes.stream()
            .filter(envelope -> envelope.containsKey("diff"))
            .flatMap(
                envelope ->
                    envelope.getJsonObject("diff").getJsonArray("put").stream()
                        .map(JsonObject.class::cast))
            .toList();
    TldrawOracle.assertValid(everyPut);
    Board replayed = Board.empty(ROOM);
    JsonArray revisions =
        server
            .get("/api/rooms/" + ROOM + "/revisions?limit=500")
            .bodyAsJsonObject()
            .getJsonArray("revisions");
    for (Object revision : revisions) {
      JsonObject stored = (JsonObject) revision;
      replayed =
          replayed.apply(RecordDiff.fromJson(stored.getJsonObject("diff")), stored.getLong("rev"));
    }
    assertEquals(board.getLong("revision"), replayed.revision());
    assertEquals(fromEnvelopes.records(), replayed.records());

    Await.result(first.close());
    Await.result(second.close());
    Await.result(server.stop());

    TestServer restarted = TestServer.start(vertx, Optional.of(database));
    JsonObject afterRestart = restarted.board(ROOM);
    assertEquals(board.getLong("revision"), afterRestart.getLong("revision"));
    assertEquals(
        recordsById(board.getJsonArray("records")),
        recordsById(afterRestart.getJsonArray("records")),
        "a restarted server serves the same board");
    Await.result(restarted.stop());
  }

  static List<JsonObject> board(TestServer server) {
    return server.board(ROOM).getJsonArray("records").stream().map(JsonObject.class::cast).toList();
  }

  static List<JsonObject> actions(List<SseEvent> events) {
    return events.stream()
        .filter(event -> event.event().equals("agent:action"))
        .map(SseEvent::data)
        .toList();
  }

  static java.util.Map<String, JsonObject> recordsById(JsonArray records) {
    java.util.Map<String, JsonObject> byId = new java.util.LinkedHashMap<>();
    records.forEach(record -> byId.put(((JsonObject) record).getString("id"), (JsonObject) record));
    return byId;
  }
}
