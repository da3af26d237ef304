package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 16, defect 7: running {@code /tour} again on its own shapes committed revisions that change
 * nothing. Against PostgreSQL: every stored revision changes the board, a diff that would change
 * nothing commits and publishes nothing, and its action still counts as applied.
 */
@ExtendWith(VertxExtension.class)
class NoEmptyRevisionsTest {
  static final String ROOM = "no-empty-room";
  DatabaseConfig database;
  TestServer server;

  @BeforeEach
  void start(Vertx vertx) {
    database = TestDatabase.freshSchema();
    server =
        TestServer.start(
            vertx,
            TestServer.config(Map.of()).withDatabase(Optional.of(database)),
            List.of(new ScriptedModel(vertx)));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
    TestDatabase.drop(database);
  }

  /** Posts {@code message} in the session (a new one when null) and waits for its request's end. */
  List<SseEvent> request(SseClient sse, String sessionId, String message) {
    JsonObject body = new JsonObject().put("roomId", ROOM).put("message", message);
    if (sessionId != null) {
      body.put("sessionId", sessionId);
    }
    var accepted = server.postRun(body);
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String session = accepted.bodyAsJsonObject().getString("sessionId");
    String runId = accepted.bodyAsJsonObject().getString("runId");
    List<SseEvent> events = Await.result(sse.awaitEvent(RunFlowContract.endOf(runId)));
    return Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(session)));
  }

  List<JsonObject> revisions() {
    JsonArray page =
        server
            .get("/api/rooms/" + ROOM + "/revisions?limit=500")
            .bodyAsJsonObject()
            .getJsonArray("revisions");
    return page.stream().map(JsonObject.class::cast).toList();
  }

  /** The revisions whose diff left the board as it was. */
  static List<Long> emptyRevisions(List<JsonObject> revisions) {
    List<Long> empty = new ArrayList<>();
    Board board = Board.empty(ROOM);
    for (JsonObject stored : revisions) {
      Board next =
          board.apply(RecordDiff.fromJson(stored.getJsonObject("diff")), stored.getLong("rev"));
      if (next.records().equals(board.records())) {
        empty.add(stored.getLong("rev"));
      }
      board = next;
    }
    return empty;
  }

  static JsonObject statusOf(List<SseEvent> events, String runId) {
    return events.stream()
        .filter(RunFlowContract.endOf(runId))
        .map(SseEvent::data)
        .reduce((first, second) -> second)
        .orElseThrow();
  }

  @Test
  void theTourRunTwiceCommitsNoRevisionThatChangesNothing() {
    SseClient sse = server.events(ROOM);
    List<SseEvent> first = request(sse, null, "/tour");
    String sessionId = first.get(first.size() - 1).data().getString("sessionId");
    long afterFirst = server.board(ROOM).getLong("revision");
    List<Long> emptyInFirst = emptyRevisions(revisions());

    request(sse, sessionId, "/tour");
    List<JsonObject> revisions = revisions();
    long afterSecond = server.board(ROOM).getLong("revision");
    List<Long> empty = emptyRevisions(revisions);
    assertEquals(
        List.of(),
        empty,
        "revisions that changed nothing: "
            + emptyInFirst.size()
            + " of the first tour's "
            + afterFirst
            + ", "
            + (empty.size() - emptyInFirst.size())
            + " of the second's "
            + (afterSecond - afterFirst));
    assertEquals(afterSecond, revisions.get(revisions.size() - 1).getLong("rev"));
    Await.result(sse.close());
  }

  @Test
  void actionsThatChangeNothingAreAppliedUnchangedWithNoRevisionAndNoEnvelope() {
    SseClient sse = server.events(ROOM);
    JsonObject red =
        ScriptedModel.call(
            "update_shape",
            new JsonObject()
                .put("shapeId", "b1")
                .put("props", new JsonObject().put("color", "red")));
    var accepted =
        server.postRun(
            ScriptedModel.run(
                ROOM,
                List.of(
                    ScriptedModel.call(
                        "create_shape",
                        new JsonObject()
                            .put("id", "b1")
                            .put("type", "rectangle")
                            .put("x", 0)
                            .put("y", 0)
                            .put("text", "hello")
                            .put("props", new JsonObject().put("w", 100).put("h", 50))),
                    red,
                    // The same diff again, and a label the shape already has.
                    red,
                    ScriptedModel.call(
                        "label", new JsonObject().put("shapeId", "b1").put("text", "hello")))));
    String runId = accepted.bodyAsJsonObject().getString("runId");
    List<SseEvent> events = Await.result(sse.awaitEvent(RunFlowContract.endOf(runId)));

    JsonObject end = statusOf(events, runId);
    assertEquals("done", end.getString("state"), end.encode());
    assertEquals(4, end.getJsonObject("detail").getInteger("applied"), end.encode());
    assertEquals(2, end.getJsonObject("detail").getInteger("unchanged"), end.encode());
    assertEquals(0, end.getJsonObject("detail").getInteger("dropped"), end.encode());
    List<JsonObject> envelopes = RunFaultsTest.envelopes(events);
    assertEquals(
        List.of(1L, 2L),
        envelopes.stream().map(envelope -> envelope.getLong("rev")).toList(),
        "an envelope for each revision, none for what changed nothing");
    assertEquals(2L, server.board(ROOM).getLong("revision"));
    assertEquals(2, revisions().size());
    assertEquals(List.of(), emptyRevisions(revisions()));
    Await.result(sse.close());
  }

  @Test
  void aPersonsChangeThatChangesNothingCommitsAndPublishesNothing() {
    SseClient sse = server.events(ROOM);
    JsonObject box =
        ShapeRecords.shape(
            "shape:p1", "geo", 10, 20, "a1", ShapeRecords.geoProps("rectangle", 100, 50, "hi"));
    JsonObject first = change(0, new JsonObject().put("put", new JsonArray().add(box)));
    assertEquals(1L, first.getLong("revision"));

    // The same record again (numbers written another way), then nothing at all.
    JsonObject sameAgain = box.copy().put("x", 10.0);
    var again = post(1, new JsonObject().put("put", new JsonArray().add(sameAgain)));
    var nothing = post(1, new JsonObject().put("put", new JsonArray()));
    assertEquals(1L, server.board(ROOM).getLong("revision"), "no revision for either");
    assertEquals(1, revisions().size());
    assertEquals(
        new JsonObject()
            .put("ok", true)
            .put("roomId", ROOM)
            .put("revision", 1)
            .put("changed", true),
        first);
    JsonObject unchanged =
        new JsonObject()
            .put("ok", true)
            .put("roomId", ROOM)
            .put("revision", 1)
            .put("changed", false);
    assertEquals(unchanged, again.bodyAsJsonObject());
    assertEquals(unchanged, nothing.bodyAsJsonObject());

    // A stale base is still a conflict, changed or not: the change is judged at its base.
    var stale =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + ROOM + "/changes")
                .sendJsonObject(
                    new JsonObject().put("baseRevision", 0).put("put", new JsonArray().add(box))));
    assertEquals(409, stale.statusCode(), stale.bodyAsString());

    // The next real change is the next revision, and the next canvas:change after the first.
    JsonObject moved = box.copy().put("x", 300.0);
    assertEquals(
        2L, change(1, new JsonObject().put("put", new JsonArray().add(moved))).getLong("revision"));
    List<SseEvent> changes =
        Await.result(
                sse.awaitEvent(
                    event ->
                        event.event().equals("canvas:change")
                            && event.data().getLong("revision") == 2))
            .stream()
            .filter(event -> event.event().equals("canvas:change"))
            .toList();
    assertEquals(
        List.of(1L, 2L), changes.stream().map(event -> event.data().getLong("revision")).toList());
    Await.result(sse.close());
  }

  HttpResponse<Buffer> post(long baseRevision, JsonObject change) {
    return Await.result(
        server
            .http()
            .post("/api/rooms/" + ROOM + "/changes")
            .sendJsonObject(change.copy().put("baseRevision", baseRevision)));
  }

  JsonObject change(long baseRevision, JsonObject change) {
    var answer = post(baseRevision, change);
    assertEquals(200, answer.statusCode(), answer.bodyAsString());
    return answer.bodyAsJsonObject();
  }
}
