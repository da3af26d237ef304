package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent's todo list through real runs: the scripted {@code /todos} run adds two items, resolves one
 * by the ref it gave it and names an id the session does not have; every change shows on
 * {@code agent:chat}, the bad update is dropped with nothing changed, and {@code GET
 * /api/sessions/{id}/todos} lists what the store holds. An item left open earns the request one
 * {@code open_todos} follow-up, so the {@code /todos} run ends {@code scheduled}.
 */
@ExtendWith(VertxExtension.class)
abstract class TodoFlowContract {
  TestServer server;
  String roomId;

  abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void start(Vertx vertx) {
    server = TestServer.start(vertx, database());
    roomId = "todo-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  List<SseEvent> runToEnd(SseClient sse, JsonObject request) {
    var response = server.postRun(request);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
    return Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId))).stream()
        .filter(event -> sessionId.equals(event.data().getString("sessionId")))
        .toList();
  }

  JsonObject todos(String sessionId) {
    var response = server.get("/api/sessions/" + sessionId + "/todos");
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  @Test
  void aRunAddsResolvesAndListsTodosAndDropsAnUpdateOfAnUnknownId() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "/todos plan it"));
    String sessionId = events.get(0).data().getString("sessionId");
    String runId = events.get(0).data().getJsonObject("detail").getString("runId");

    JsonObject done =
        events.stream().filter(RunFlowContract.endOf(runId)).findFirst().orElseThrow().data();
    assertEquals("scheduled", done.getString("state"), done.encode());
    JsonObject detail = done.getJsonObject("detail");
    assertEquals(
        "open_todos",
        detail.getJsonArray("followupsQueued").getJsonObject(0).getString("reason"),
        "an item is still open: " + detail.encode());
    assertEquals(
        4, detail.getInteger("applied"), "two adds, a shape, a resolve: " + detail.encode());
    assertEquals(1, detail.getInteger("dropped"), "the update of an id the session does not have");
    assertEquals(3, detail.getInteger("todoChanges"));

    List<JsonObject> todoChats =
        events.stream()
            .filter(e -> e.event().equals("agent:chat") && e.data().containsKey("message"))
            .map(e -> e.data().getJsonObject("message"))
            .filter(message -> message.containsKey("todo"))
            .toList();
    assertEquals(
        List.of("added", "added", "resolved"),
        todoChats.stream().map(message -> message.getJsonObject("todo").getString("op")).toList());
    assertTrue(todoChats.stream().allMatch(message -> message.getString("role").equals("system")));
    assertEquals("todo added: Sketch the layout", todoChats.get(0).getString("text"));
    assertEquals("todo done: Sketch the layout", todoChats.get(2).getString("text"));
    assertEquals(
        todoChats.get(0).getJsonObject("todo").getJsonObject("item").getString("id"),
        todoChats.get(2).getJsonObject("todo").getJsonObject("item").getString("id"),
        "the ref named the first item");

    long todoEnvelopes =
        events.stream()
            .filter(e -> e.event().equals("agent:action"))
            .filter(
                e ->
                    e.data()
                        .getJsonArray("actions")
                        .getJsonObject(0)
                        .getString("name")
                        .equals("todo"))
            .count();
    assertEquals(3, todoEnvelopes, "the dropped update is not published");

    JsonArray items = todos(sessionId).getJsonArray("todos");
    assertEquals(2, items.size(), items.encode());
    JsonObject layout = items.getJsonObject(0);
    assertEquals("Sketch the layout", layout.getString("text"));
    assertEquals("done", layout.getString("status"));
    assertEquals(0, layout.getInteger("position"));
    assertTrue(layout.getLong("resolvedAt") >= layout.getLong("createdAt"));
    JsonObject labels = items.getJsonObject(1);
    assertEquals("Label every arrow", labels.getString("text"));
    assertEquals("open", labels.getString("status"));
    assertEquals(1, labels.getInteger("position"));
    assertNull(labels.getValue("resolvedAt"));
    Await.result(sse.close());
  }

  @Test
  void aSecondRunAppendsToTheListAndItsRefsAreItsOwn() {
    SseClient sse = server.events(roomId);
    List<SseEvent> first =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "/todos one"));
    String sessionId = first.get(0).data().getString("sessionId");
    var response =
        server.postRun(
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "/todos two")
                .put("sessionId", sessionId));
    String secondRunId = response.bodyAsJsonObject().getString("runId");
    List<SseEvent> all = Await.result(sse.awaitEvent(RunFlowContract.endOf(secondRunId)));
    JsonObject done = all.get(all.size() - 1).data().getJsonObject("detail");
    assertEquals(3, done.getInteger("todoChanges"), done.encode());

    JsonArray items = todos(sessionId).getJsonArray("todos");
    assertEquals(4, items.size(), items.encode());
    assertEquals(
        List.of(0, 1, 2, 3),
        items.stream().map(item -> ((JsonObject) item).getInteger("position")).toList());
    assertEquals(
        List.of("done", "open", "done", "open"),
        items.stream().map(item -> ((JsonObject) item).getString("status")).toList(),
        "each run's ref named the item that run added");
    Await.result(sse.close());
  }

  @Test
  void theTodosOfAnUnknownSessionAre404AndABadSessionIdIs400() {
    var unknown = server.get("/api/sessions/no-such-session/todos");
    assertEquals(404, unknown.statusCode(), unknown.bodyAsString());
    assertEquals(
        "SESSION_NOT_FOUND", unknown.bodyAsJsonObject().getJsonObject("error").getString("code"));

    var bad = server.get("/api/sessions/not%20an%20id/todos");
    assertEquals(400, bad.statusCode(), bad.bodyAsString());
    assertEquals(
        "INVALID_REQUEST", bad.bodyAsJsonObject().getJsonObject("error").getString("code"));
  }

  @Test
  void aSessionWithoutTodosListsNone() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "draw a box"));
    String sessionId = events.get(0).data().getString("sessionId");
    JsonObject listed = todos(sessionId);
    assertEquals(sessionId, listed.getString("sessionId"));
    assertTrue(listed.getJsonArray("todos").isEmpty());
    assertFalse(
        events.get(events.size() - 1).data().getJsonObject("detail").containsKey("todoChanges"));
    Await.result(sse.close());
  }
}
