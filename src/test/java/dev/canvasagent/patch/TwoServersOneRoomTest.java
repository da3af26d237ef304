package dev.canvasagent.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.BoardStore.BoardRevision;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.pg.PgStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two servers (each a Vert.x, a bus and a patch engine of its own, as two processes) on one
 * PostgreSQL, one room: people change it over HTTP on both at once while an agent run draws on each.
 * After every step the board each server holds is the store's at its revision; at the end both
 * serve the store's board, every change a person was told was committed is in it once, and every
 * shape the runs drew, once.
 */
class TwoServersOneRoomTest {
  static final String ROOM = "two-servers";
  static final int STEPS = 12;
  static final int SHAPES_PER_RUN = 6;

  DatabaseConfig database;
  Vertx nodeA;
  Vertx nodeB;
  Vertx reader;
  TestServer a;
  TestServer b;
  Store truth;

  @BeforeEach
  void start() {
    database = TestDatabase.freshSchema();
    nodeA = Vertx.vertx();
    nodeB = Vertx.vertx();
    reader = Vertx.vertx();
    var config = TestServer.config(Map.of()).withDatabase(Optional.of(database));
    a = TestServer.start(nodeA, config, List.of(new ScriptedModel(nodeA)));
    b = TestServer.start(nodeB, config, List.of(new ScriptedModel(nodeB)));
    truth = Await.result(PgStore.open(reader, database));
  }

  @AfterEach
  void stop() {
    Await.result(a.stop());
    Await.result(b.stop());
    for (Vertx vertx : List.of(nodeA, nodeB, reader)) {
      Await.result(vertx.close());
    }
    TestDatabase.drop(database);
  }

  @Test
  void peopleAndRunsOnTwoServersLoseNothingAndEachServerHoldsTheStoresBoard() {
    SseClient eventsA = a.events(ROOM);
    SseClient eventsB = b.events(ROOM);
    String runA = startRun(a, "agent-a");
    String runB = startRun(b, "agent-b");
    Set<String> people = new TreeSet<>();
    for (int step = 0; step < STEPS; step++) {
      List<Future<String>> changes = new ArrayList<>();
      changes.add(personChange(a, "shape:person-a-" + step, step, 20));
      changes.add(personChange(b, "shape:person-b-" + step, step, 20));
      for (Future<String> change : changes) {
        people.add(Await.result(change));
      }
      assertHoldsTheStoresBoard(a, "a");
      assertHoldsTheStoresBoard(b, "b");
    }
    for (var run : List.of(Map.entry(eventsA, runA), Map.entry(eventsB, runB))) {
      var events = Await.result(run.getKey().awaitEvent(endOf(run.getValue())));
      JsonObject end =
          events.stream().filter(endOf(run.getValue())).findFirst().orElseThrow().data();
      assertEquals("done", end.getString("state"), end.encode());
    }
    assertHoldsTheStoresBoard(a, "a");
    assertHoldsTheStoresBoard(b, "b");

    Board stored = Await.result(truth.boards().load(ROOM));
    Set<String> expected = new TreeSet<>(people);
    for (String agent : List.of("agent-a", "agent-b")) {
      for (int i = 0; i < SHAPES_PER_RUN; i++) {
        expected.add("shape:" + agent + "-" + i);
      }
    }
    assertEquals(expected, new TreeSet<>(stored.records().keySet()));
    List<BoardRevision> history = Await.result(truth.boards().revisions(ROOM, 0, 10_000));
    assertEquals(stored.revision(), history.size());
    assertEquals(
        people.size(),
        history.stream().filter(revision -> revision.author().equals("person")).count(),
        "one revision per change a person was told was committed");
    assertEquals(
        2L * SHAPES_PER_RUN,
        history.stream().filter(revision -> revision.author().startsWith("agent:")).count(),
        "one revision per shape the runs drew");
    for (TestServer server : List.of(a, b)) {
      JsonObject served = server.board(ROOM);
      assertEquals(stored.revision(), served.getLong("revision"));
      assertEquals(stored.records().size(), served.getJsonArray("records").size());
      assertEquals(stored.records(), Board.fromJson(served).records());
    }
    eventsA.close();
    eventsB.close();
  }

  /** The final status of run {@code runId}. */
  static Predicate<SseEvent> endOf(String runId) {
    return event ->
        event.event().equals("agent:status")
            && runId.equals(
                event.data().getJsonObject("detail", new JsonObject()).getString("runId"))
            && List.of("done", "error", "canceled").contains(event.data().getString("state"));
  }

  /** A run on {@code server} that draws {@link #SHAPES_PER_RUN} shapes named after {@code agent}. */
  String startRun(TestServer server, String agent) {
    List<JsonObject> calls = new ArrayList<>();
    for (int i = 0; i < SHAPES_PER_RUN; i++) {
      calls.add(
          ScriptedModel.call(
              "create_shape",
              new JsonObject()
                  .put("id", agent + "-" + i)
                  .put("type", "rectangle")
                  .put("x", 100 * i)
                  .put("y", agent.endsWith("a") ? 400 : 600)
                  .put("props", new JsonObject().put("w", 50).put("h", 50))));
    }
    HttpResponse<Buffer> accepted = server.postRun(ScriptedModel.run(ROOM, calls));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    return accepted.bodyAsJsonObject().getString("runId");
  }

  /**
   * A person's new shape, sent as a page sends it: on the revision the server last said, again on
   * the revision a 409 names. Completes with the shape's id once the server says it is committed.
   */
  Future<String> personChange(TestServer server, String id, int step, int tries) {
    JsonObject shape =
        ShapeRecords.shape(
            id, "geo", 80 * step, 0, "a1", ShapeRecords.geoProps("rectangle", 40, 40, ""));
    return server
        .http()
        .get("/api/rooms/" + ROOM + "/board")
        .send()
        .map(response -> response.bodyAsJsonObject().getLong("revision"))
        .compose(revision -> send(server, RecordDiff.putting(shape), revision, tries))
        .map(committed -> id);
  }

  Future<Void> send(TestServer server, RecordDiff diff, long revision, int tries) {
    return server
        .http()
        .post("/api/rooms/" + ROOM + "/changes")
        .sendJsonObject(diff.toJson().put("baseRevision", revision))
        .compose(
            response -> {
              if (response.statusCode() == 200) {
                assertTrue(response.bodyAsJsonObject().getBoolean("changed"));
                return Future.<Void>succeededFuture();
              }
              if (response.statusCode() == 409 && tries > 1) {
                // The conflict names the room's revision now: the edit goes again on it.
                return send(
                    server, diff, response.bodyAsJsonObject().getLong("revision"), tries - 1);
              }
              return Future.failedFuture(response.bodyAsString());
            });
  }

  /** What {@code server} holds for the room is the store's history replayed to its revision. */
  void assertHoldsTheStoresBoard(TestServer server, String name) {
    Board held = server.boards().held(ROOM).orElse(null);
    if (held == null) {
      return;
    }
    Board replayed = Board.empty(ROOM);
    for (BoardRevision revision :
        Await.result(truth.boards().revisions(ROOM, 0, (int) held.revision()))) {
      replayed = replayed.apply(revision.diff(), revision.revision());
    }
    assertEquals(held.revision(), replayed.revision(), name + "'s revision is stored");
    assertEquals(replayed.records(), held.records(), name + " at revision " + held.revision());
  }
}
