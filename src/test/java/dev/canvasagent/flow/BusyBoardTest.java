package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.PersonWriters;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 16, defect 2: a person editing the board quickly starved the agent (after 3 re-sanitize
 * retries the whole run failed with REVISION_CONFLICT). Four people move their shapes at 100 changes/s
 * between them over HTTP, against PostgreSQL, while agent runs create, restyle, move, label and align
 * shapes of their own: every run ends {@code done} with every action applied.
 */
@ExtendWith(VertxExtension.class)
class BusyBoardTest {
  static final String ROOM = "busy-room";
  static final int WRITERS = 4;
  static final double CHANGES_PER_SECOND = 100;
  static final int CHAINS = 2;
  static final int RUNS_PER_CHAIN = 4;

  DatabaseConfig database;
  TestServer server;

  @BeforeEach
  void start(Vertx vertx) {
    database = TestDatabase.freshSchema();
    AppConfig config = TestServer.config(Map.of()).withDatabase(Optional.of(database));
    server = TestServer.start(vertx, config, List.of(new ScriptedModel(vertx)));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
    TestDatabase.drop(database);
  }

  /**
   * Run {@code n} of chain {@code c}: two shapes of its own, each in a place and with a text of its
   * own (the sanitizer drops a create identical to a shape on the board), then five changes to them.
   */
  static List<JsonObject> script(int c, int n) {
    String tag = "chain" + c + "-" + n;
    String a = tag + "-a";
    String b = tag + "-b";
    int x = 400 * c;
    int y = 160 * n;
    return List.of(
        ScriptedModel.call("think", new JsonObject().put("text", "Two boxes, then tidy them.")),
        ScriptedModel.call(
            "create_shape",
            new JsonObject()
                .put("id", a)
                .put("type", "rectangle")
                .put("x", x)
                .put("y", y)
                .put("text", "A of " + tag)
                .put("props", new JsonObject().put("w", 120).put("h", 60))),
        ScriptedModel.call(
            "create_shape",
            new JsonObject()
                .put("id", b)
                .put("type", "rectangle")
                .put("x", x + 200)
                .put("y", y + 40)
                .put("text", "B of " + tag)
                .put("props", new JsonObject().put("w", 120).put("h", 60))),
        ScriptedModel.call(
            "update_shape",
            new JsonObject().put("shapeId", a).put("props", new JsonObject().put("color", "blue"))),
        ScriptedModel.call(
            "move",
            new JsonObject()
                .put("shapeIds", new JsonArray().add(a).add(b))
                .put("dx", 10)
                .put("dy", 5)),
        ScriptedModel.call("label", new JsonObject().put("shapeId", b).put("text", "B, relabeled")),
        ScriptedModel.call(
            "align",
            new JsonObject()
                .put("shapeIds", new JsonArray().add(a).add(b))
                .put("alignment", "top")));
  }

  /** Runs {@code runs} agent runs one after another in a session of their own; their final statuses. */
  Future<List<JsonObject>> chain(SseClient sse, int c, int runs) {
    List<JsonObject> ends = new ArrayList<>();
    Future<Void> previous = Future.succeededFuture();
    for (int n = 0; n < runs; n++) {
      List<JsonObject> script = script(c, n);
      previous =
          previous.compose(
              done ->
                  server
                      .http()
                      .post("/api/canvas-agent/run")
                      .sendJsonObject(ScriptedModel.run(ROOM, script))
                      .compose(
                          accepted -> {
                            assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
                            String runId = accepted.bodyAsJsonObject().getString("runId");
                            return sse.awaitEvent(RunFlowContract.endOf(runId))
                                .map(
                                    events -> {
                                      ends.add(last(events, runId));
                                      return null;
                                    });
                          }));
    }
    return previous.map(done -> ends);
  }

  static JsonObject last(List<SseEvent> events, String runId) {
    return events.stream()
        .filter(RunFlowContract.endOf(runId))
        .map(SseEvent::data)
        .reduce((first, second) -> second)
        .orElseThrow();
  }

  @Test
  void agentRunsFinishEveryActionWhileFourPeopleEditAt100ChangesASecond(Vertx vertx) {
    SseClient sse = server.events(ROOM);
    PersonWriters people =
        Await.result(PersonWriters.start(vertx, server.port(), ROOM, WRITERS, CHANGES_PER_SECOND));
    List<Future<List<JsonObject>>> chains = new ArrayList<>();
    for (int c = 0; c < CHAINS; c++) {
      chains.add(chain(sse, c, RUNS_PER_CHAIN));
    }
    List<JsonObject> ends = new ArrayList<>();
    try {
      for (Future<List<JsonObject>> chain : chains) {
        ends.addAll(awaitLong(chain));
      }
    } finally {
      Await.result(people.stop());
    }

    long committedWhileRunning = people.committed();
    String summary =
        ends.stream()
                .map(end -> end.getString("state") + " " + end.getJsonObject("detail").encode())
                .collect(Collectors.joining("\n"))
            + "\npeople: sent="
            + people.sent()
            + " committed="
            + committedWhileRunning
            + " conflicts="
            + people.conflicts()
            + " skipped="
            + people.skipped();
    assertEquals(0, people.failed(), summary);
    assertTrue(committedWhileRunning > 0, summary);
    // The board was contended: the people's own changes met newer revisions too.
    assertTrue(people.conflicts() > 0, summary);
    assertEquals(CHAINS * RUNS_PER_CHAIN, ends.size(), summary);
    for (JsonObject end : ends) {
      assertEquals("done", end.getString("state"), summary);
      assertEquals(7, end.getJsonObject("detail").getInteger("applied"), summary);
      assertEquals(0, end.getJsonObject("detail").getInteger("dropped"), summary);
    }

    // The people's edits and the agent's all stand: each person's shape where they last put it,
    // each run's shapes restyled, moved and labeled.
    JsonObject board = server.board(ROOM);
    Map<String, JsonObject> records =
        board.getJsonArray("records").stream()
            .map(JsonObject.class::cast)
            .collect(Collectors.toMap(record -> record.getString("id"), record -> record));
    for (JsonObject person : people.lastCommitted()) {
      assertEquals(person, records.get(person.getString("id")), summary);
    }
    for (int c = 0; c < CHAINS; c++) {
      for (int n = 0; n < RUNS_PER_CHAIN; n++) {
        JsonObject a = records.get("shape:chain" + c + "-" + n + "-a");
        JsonObject b = records.get("shape:chain" + c + "-" + n + "-b");
        assertEquals("blue", a.getJsonObject("props").getString("color"), summary);
        assertEquals(a.getDouble("y"), b.getDouble("y"), "aligned top: " + summary);
        assertTrue(b.getJsonObject("props").encode().contains("B, relabeled"), summary);
      }
    }
    Await.result(sse.close());
  }

  /** The chains take longer than one {@link Await} bound: each run is waited for in turn. */
  static <T> T awaitLong(Future<T> future) {
    return future
        .toCompletionStage()
        .toCompletableFuture()
        .orTimeout(120, java.util.concurrent.TimeUnit.SECONDS)
        .join();
  }
}
