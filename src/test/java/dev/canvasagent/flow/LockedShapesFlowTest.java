package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17, locked shapes, end to end against PostgreSQL: a person locks a shape; a run's actions on it
 * are dropped with the {@code locked:} reason, listed in its final status, and the session's next run
 * finds the reason in its model's context; the person's own edits over {@code /changes} still move and
 * unlock it, after which the agent may move it too.
 */
@ExtendWith(VertxExtension.class)
class LockedShapesFlowTest {
  static final String ROOM = "locked-room";

  DatabaseConfig database;
  TestServer server;
  CapturingModel capturing;
  SseClient sse;

  @BeforeEach
  void start(Vertx vertx) {
    // Runs of both models in one session: scripted actions, then a model that shows its context.
    capturing = new CapturingModel(vertx);
    database = TestDatabase.freshSchema();
    server =
        TestServer.start(
            vertx,
            TestServer.config(Map.of()).withDatabase(Optional.of(database)),
            List.of(new ScriptedModel(vertx), capturing));
    sse = server.events(ROOM);
  }

  @AfterEach
  void stop() {
    Await.result(sse.close());
    Await.result(server.stop());
    TestDatabase.drop(database);
  }

  /** A person's change over HTTP, on the board's current revision; its status code. */
  int personChange(JsonObject change) {
    long revision = server.board(ROOM).getLong("revision");
    var answer =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + ROOM + "/changes")
                .sendJsonObject(change.copy().put("baseRevision", revision)));
    return answer.statusCode();
  }

  static JsonObject putting(JsonObject... records) {
    return new JsonObject().put("put", new JsonArray(List.of((Object[]) records)));
  }

  JsonObject shape(String id) {
    return server.board(ROOM).getJsonArray("records").stream()
        .map(JsonObject.class::cast)
        .filter(record -> ("shape:" + id).equals(record.getString("id")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no shape " + id));
  }

  /** Runs {@code body} in the room to its end; the final status. */
  JsonObject runToEnd(JsonObject body) {
    var accepted = server.postRun(body);
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    List<SseEvent> events =
        Await.result(
            sse.awaitEvent(RunFlowContract.endOf(accepted.bodyAsJsonObject().getString("runId"))));
    JsonObject end = events.get(events.size() - 1).data();
    assertEquals("done", end.getString("state"), end.encode());
    return end.put("sessionId", accepted.bodyAsJsonObject().getString("sessionId"));
  }

  static JsonObject moveRight(String id) {
    return ScriptedModel.call(
        "move",
        new JsonObject().put("shapeIds", new JsonArray().add(id)).put("dx", 100).put("dy", 0));
  }

  @Test
  void aRunLeavesTheLockedShapeAndItsNextRunIsToldWhyWhileThePersonStillMovesAndUnlocksIt() {
    assertEquals(
        200,
        personChange(
            putting(
                TestShapes.geo("title", 100, 100, 200, 80).put("isLocked", true),
                TestShapes.geo("free", 100, 300, 200, 80).put("index", "a2"))));
    JsonObject title = shape("title");

    JsonObject first =
        runToEnd(
            ScriptedModel.run(
                ROOM,
                List.of(
                    moveRight("title"),
                    ScriptedModel.call(
                        "label", new JsonObject().put("shapeId", "title").put("text", "Mine now")),
                    moveRight("free"),
                    ScriptedModel.call("moove", moveRight("free").getJsonObject("arguments")))));

    JsonObject detail = first.getJsonObject("detail");
    assertEquals(1, detail.getInteger("applied"), first.encode());
    assertEquals(3, detail.getInteger("dropped"), first.encode());
    JsonArray locked = detail.getJsonArray("locked");
    assertEquals(2, locked.size(), first.encode());
    assertEquals("move", locked.getJsonObject(0).getString("name"));
    assertEquals("label", locked.getJsonObject(1).getString("name"));
    assertTrue(
        locked.getJsonObject(0).getString("reason").startsWith("locked: shape(s) [title]"),
        first.encode());
    assertEquals(title, shape("title"), "the locked shape is as the person left it");
    assertEquals(200.0, shape("free").getDouble("x"), "the free one moved");

    runToEnd(
        new JsonObject()
            .put("roomId", ROOM)
            .put("sessionId", first.getString("sessionId"))
            .put("model", CapturingModel.MODEL)
            .put("message", "why did the title not move?"));

    JsonObject context = capturing.requests().get(0).context();
    List<String> systemLines =
        context.getJsonArray(ModelContext.CHAT).stream()
            .map(JsonObject.class::cast)
            .filter(message -> "system".equals(message.getString("role")))
            .map(message -> message.getString("text"))
            .toList();
    assertEquals(3, systemLines.size(), context.encode());
    assertTrue(
        systemLines.get(0).startsWith("move was dropped, locked: shape(s) [title]"),
        systemLines.toString());
    assertTrue(systemLines.get(1).startsWith("label was dropped, locked:"), systemLines.toString());
    assertTrue(
        systemLines
            .get(2)
            .startsWith(
                "moove was dropped, unknown action 'moove'; the closest known verbs are move"),
        "every refused action is told, with the closest verbs for one that is none: "
            + systemLines);
    assertTrue(
        context.getJsonArray(ModelContext.SHAPES).stream()
            .map(JsonObject.class::cast)
            .anyMatch(shape -> "title".equals(shape.getString("id")) && shape.getBoolean("locked")),
        "the model sees the shape marked locked: " + context.encode());

    // The person's own edits are not judged: they move the locked shape, then unlock it.
    assertEquals(200, personChange(putting(shape("title").put("x", 400))));
    assertEquals(400.0, shape("title").getDouble("x"));
    assertTrue(shape("title").getBoolean("isLocked"));
    assertEquals(200, personChange(putting(shape("title").put("isLocked", false))));
    assertFalse(shape("title").getBoolean("isLocked"));

    JsonObject after = runToEnd(ScriptedModel.run(ROOM, List.of(moveRight("title"))));
    assertEquals(1, after.getJsonObject("detail").getInteger("applied"), after.encode());
    assertFalse(after.getJsonObject("detail").containsKey("locked"), after.encode());
    assertEquals(500.0, shape("title").getDouble("x"), "unlocked, the agent may move it");
  }
}
