package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.bus.Address;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Undoing the agent (issue 21): {@code POST /api/canvas-agent/runs/{runId}/revert} reverts the
 * changes a run made as one new revision, broadcast as a {@code canvas:change}, and leaves alone (and
 * reports) what a person changed after the run. Each refusal changes nothing.
 */
@ExtendWith(VertxExtension.class)
abstract class RunRevertContract {
  Vertx vertx;
  TestServer server;
  String roomId;

  abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = start(Map.of());
    roomId = "revert-" + UUID.randomUUID().toString().substring(0, 8);
  }

  TestServer start(Map<String, String> environment) {
    return start(vertx, environment);
  }

  TestServer start(Vertx on, Map<String, String> environment) {
    AppConfig config = TestServer.config(environment).withDatabase(database());
    return TestServer.start(on, config, List.of(new ScriptedModel(on)));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  static JsonObject box(String id, double x) {
    return ShapeRecords.shape(
        id, "geo", x, 400, "a1", ShapeRecords.geoProps("rectangle", 80, 40, "p"));
  }

  static JsonObject create(String id, int x) {
    return ScriptedModel.call(
        "create_shape",
        new JsonObject()
            .put("id", id)
            .put("type", "rectangle")
            .put("x", x)
            .put("y", 0)
            .put("text", id)
            .put("props", new JsonObject().put("w", 100).put("h", 50)));
  }

  static JsonObject recolor(String id) {
    return ScriptedModel.call(
        "update_shape",
        new JsonObject().put("shapeId", id).put("props", new JsonObject().put("color", "red")));
  }

  static JsonObject delete(String id) {
    return ScriptedModel.call("delete_shape", new JsonObject().put("shapeId", id));
  }

  /** A person's change on the board as it is now. */
  HttpResponse<Buffer> personChange(JsonObject change) {
    long revision = server.board(roomId).getLong("revision");
    return Await.result(
        server
            .http()
            .post("/api/rooms/" + roomId + "/changes")
            .sendJsonObject(change.copy().put("baseRevision", revision)));
  }

  static JsonObject putting(JsonObject... records) {
    return new JsonObject().put("put", new JsonArray(List.of((Object[]) records)));
  }

  /** Runs the script to its end; answers the run's id. */
  String runToEnd(SseClient sse, List<JsonObject> calls) {
    HttpResponse<Buffer> accepted = server.postRun(ScriptedModel.run(roomId, calls));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String runId = accepted.bodyAsJsonObject().getString("runId");
    List<SseEvent> events = Await.result(sse.awaitEvent(RunFlowContract.endOf(runId)));
    JsonObject end = events.get(events.size() - 1).data();
    assertEquals("done", end.getString("state"), end.encode());
    return runId;
  }

  HttpResponse<Buffer> revert(TestServer on, String runId, String room, String token) {
    var request = on.http().post("/api/canvas-agent/runs/" + runId + "/revert");
    if (token != null) {
      request.putHeader("authorization", TestTokens.bearer(token));
    }
    return Await.result(request.sendJsonObject(new JsonObject().put("roomId", room)));
  }

  HttpResponse<Buffer> revert(String runId) {
    return revert(server, runId, roomId, null);
  }

  JsonObject record(JsonObject board, String id) {
    return board.getJsonArray("records").stream()
        .map(JsonObject.class::cast)
        .filter(record -> id.equals(record.getString("id")))
        .findFirst()
        .orElse(null);
  }

  @Test
  void aRunIsRevertedButWhatAPersonChangedSinceStaysAndIsReported() {
    assertEquals(
        200, personChange(putting(box("shape:kept", 0), box("shape:gone", 200))).statusCode());
    JsonObject keptBefore = record(server.board(roomId), "shape:kept");
    JsonObject goneBefore = record(server.board(roomId), "shape:gone");
    SseClient sse = server.events(roomId);
    String runId =
        runToEnd(
            sse,
            List.of(
                create("one", 0),
                create("two", 150),
                create("three", 300),
                recolor("kept"),
                delete("gone")));
    JsonObject afterRun = server.board(roomId);
    assertTrue(record(afterRun, "shape:one") != null, afterRun.encode());
    assertEquals(null, record(afterRun, "shape:gone"));
    assertEquals("red", record(afterRun, "shape:kept").getJsonObject("props").getString("color"));

    // The person moves one of the agent's shapes after the run.
    JsonObject moved = record(afterRun, "shape:two").copy().put("x", 999);
    assertEquals(200, personChange(putting(moved)).statusCode());
    long before = server.board(roomId).getLong("revision");

    HttpResponse<Buffer> response = revert(runId);

    assertEquals(200, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertTrue(body.getBoolean("ok"));
    assertEquals(runId, body.getString("runId"));
    assertEquals(before + 1, body.getLong("revision"), "one new revision: " + body.encode());
    assertTrue(body.getBoolean("changed"));
    assertEquals(
        List.of("shape:one", "shape:three", "shape:kept", "shape:gone").stream().sorted().toList(),
        body.getJsonArray("reverted").stream().map(String.class::cast).sorted().toList(),
        body.encode());
    assertEquals(
        new JsonArray().add(new JsonObject().put("id", "shape:two").put("by", "person")),
        body.getJsonArray("keptChanged"));

    JsonObject board = server.board(roomId);
    assertEquals(before + 1, board.getLong("revision"));
    assertEquals(null, record(board, "shape:one"), "the run's untouched shape is gone");
    assertEquals(null, record(board, "shape:three"));
    assertEquals(moved, record(board, "shape:two"), "the person's edit is intact");
    assertEquals(keptBefore, record(board, "shape:kept"), "the updated shape is as it was");
    assertEquals(goneBefore, record(board, "shape:gone"), "the deleted shape is back");

    List<SseEvent> events =
        Await.result(
            sse.awaitEvent(
                event ->
                    event.event().equals("canvas:change")
                        && event.data().getLong("revision") == before + 1));
    JsonObject change = events.get(events.size() - 1).data();
    assertEquals("revert:" + runId, change.getString("author"));
    assertEquals(
        List.of("shape:one", "shape:three").stream().sorted().toList(),
        change.getJsonObject("diff").getJsonArray("remove").stream()
            .map(String.class::cast)
            .sorted()
            .toList());
    Await.result(sse.close());

    // A second revert finds nothing left to revert and still reports the person's edit.
    HttpResponse<Buffer> again = revert(runId);
    assertEquals(200, again.statusCode(), again.bodyAsString());
    JsonObject second = again.bodyAsJsonObject();
    assertEquals(before + 1, second.getLong("revision"));
    assertFalse(second.getBoolean("changed"));
    assertEquals(new JsonArray(), second.getJsonArray("reverted"));
    assertEquals(body.getJsonArray("keptChanged"), second.getJsonArray("keptChanged"));
    assertEquals(board, server.board(roomId));
  }

  @Test
  void anUnknownRunIsRefusedAndNothingChanges() {
    JsonObject board = server.board(roomId);
    assertError(revert("no-such-run"), 404, "RUN_NOT_FOUND", "no-such-run");
    assertError(revert("bad.run"), 400, "INVALID_REQUEST", "runId");
    assertEquals(board, server.board(roomId));
  }

  @Test
  void aRunOfAnotherRoomIsRefusedAndNothingChanges() {
    SseClient sse = server.events(roomId);
    String runId = runToEnd(sse, List.of(create("mine", 0)));
    Await.result(sse.close());
    JsonObject board = server.board(roomId);

    assertError(revert(server, runId, roomId + "-other", null), 409, "RUN_ROOM_MISMATCH", runId);
    assertEquals(board, server.board(roomId));
    assertEquals(0, server.board(roomId + "-other").getLong("revision"));
  }

  @Test
  void aRunStillRunningIsRefusedAndNothingChanges() {
    // The run's commit is held at the patch engine until the refusal has been seen.
    Promise<Void> release = Promise.promise();
    AtomicReference<String> heldRun = new AtomicReference<>();
    Handler<DeliveryContext<Object>> hold =
        delivery -> {
          if (!delivery.message().address().equals(Address.PATCH_BOARD_APPLY.address())
              || !(delivery.message().body() instanceof JsonObject body)
              || body.getString("runId") == null) {
            delivery.next();
            return;
          }
          heldRun.set(body.getString("runId"));
          Context context = Vertx.currentContext();
          release.future().onComplete(go -> context.runOnContext(now -> delivery.next()));
        };
    vertx.eventBus().addInboundInterceptor(hold);
    try {
      SseClient sse = server.events(roomId);
      HttpResponse<Buffer> accepted =
          server.postRun(ScriptedModel.run(roomId, List.of(create("slow", 0))));
      String runId = accepted.bodyAsJsonObject().getString("runId");
      Await.result(
          sse.awaitEvent(
              event ->
                  event.event().equals("agent:status")
                      && "streaming".equals(event.data().getString("state"))));
      Await.result(
          Eventually.holds(vertx, () -> Future.succeededFuture(runId.equals(heldRun.get()))));

      assertError(revert(runId), 409, "RUN_STILL_RUNNING", "running");
      assertEquals(0, server.board(roomId).getLong("revision"));

      release.complete();
      Await.result(sse.awaitEvent(RunFlowContract.endOf(runId)));
      Await.result(sse.close());
      assertEquals(200, revert(runId).statusCode());
      assertEquals(2, server.board(roomId).getLong("revision"));
    } finally {
      release.tryComplete();
      vertx.eventBus().removeInboundInterceptor(hold);
    }
  }

  @Test
  void aViewerMayNotRevertAndNothingChanges() {
    // A Vert.x of its own: two servers on one event bus would answer each other's requests.
    Vertx securedVertx = Vertx.vertx();
    TestServer secured = start(securedVertx, TestTokens.ENVIRONMENT);
    try {
      TestTokens tokens = new TestTokens(vertx);
      JsonObject board = server.board(roomId);
      assertError(
          revert(secured, "any-run", roomId, tokens.viewer(roomId)), 403, "FORBIDDEN", "editor");
      assertError(
          revert(secured, "any-run", roomId, tokens.editor("elsewhere")), 403, "FORBIDDEN", roomId);
      assertError(revert(secured, "any-run", roomId, null), 401, "UNAUTHENTICATED", "token");
      assertEquals(board, server.board(roomId));
    } finally {
      Await.result(secured.stop());
      Await.result(securedVertx.close());
    }
  }

  static void assertError(HttpResponse<Buffer> response, int status, String code, String mentions) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertFalse(body.getBoolean("ok"));
    assertEquals(code, body.getJsonObject("error").getString("code"), body.encode());
    String message = body.getJsonObject("error").getString("message");
    assertTrue(message.contains(mentions), "'" + message + "' should mention '" + mentions + "'");
  }
}
