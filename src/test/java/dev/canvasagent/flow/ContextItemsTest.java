package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.RichText;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a person pins on a session ({@code PATCH /api/sessions/{id} {contextItems}}) reaches the
 * model's context in the session's frame, in every later run of the session, until it is changed.
 */
@ExtendWith(VertxExtension.class)
class ContextItemsTest {
  CapturingModel model;
  TestServer server;
  String roomId;

  @BeforeEach
  void start(Vertx vertx) {
    model = new CapturingModel(vertx);
    server = TestServer.start(vertx, TestServer.config(Map.of()), List.of(model));
    roomId = "pinned-" + UUID.randomUUID().toString().substring(0, 8);
    JsonObject box = TestShapes.geo("box1", 150.6, 80, 100, 50);
    box.getJsonObject("props").put("richText", RichText.of("A"));
    var changed =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + roomId + "/changes")
                .sendJsonObject(
                    new JsonObject().put("baseRevision", 0).put("put", new JsonArray().add(box))));
    assertEquals(200, changed.statusCode(), changed.bodyAsString());
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  @Test
  void pinnedShapesAreasAndPointsReachTheModelInTheSessionsFrame() {
    var created =
        Await.result(
            server
                .http()
                .post("/api/sessions")
                .sendJsonObject(
                    new JsonObject().put("roomId", roomId).put("model", CapturingModel.MODEL)));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String sessionId = created.bodyAsJsonObject().getJsonObject("session").getString("id");
    JsonArray items =
        new JsonArray()
            .add(new JsonObject().put("type", "shape").put("shapeId", "box1"))
            .add(new JsonObject().put("type", "shape").put("shapeId", "ghost"))
            .add(
                new JsonObject()
                    .put("type", "area")
                    .put(
                        "bounds",
                        new JsonObject().put("x", 300.4).put("y", 60).put("w", 200).put("h", 100)))
            .add(
                new JsonObject()
                    .put("type", "point")
                    .put("point", new JsonObject().put("x", 110).put("y", 75.6)));
    var patched =
        Await.result(
            server
                .http()
                .patch("/api/sessions/" + sessionId)
                .sendJsonObject(new JsonObject().put("contextItems", items)));
    assertEquals(200, patched.statusCode(), patched.bodyAsString());
    SseClient sse = server.events(roomId);

    run(
        sse,
        new JsonObject()
            .put("roomId", roomId)
            .put("sessionId", sessionId)
            .put("message", "look at what I pinned")
            .put("model", CapturingModel.MODEL)
            .put(
                "viewport",
                new JsonObject().put("x", 100).put("y", 50).put("w", 800).put("h", 600)));

    ModelRequest request = model.requests().get(0);
    JsonArray pinned = request.context().getJsonArray(ModelContext.CONTEXT_ITEMS);
    assertEquals(
        3, pinned.size(), "the shape no longer on the board is left out: " + pinned.encode());
    JsonObject shape = pinned.getJsonObject(0);
    assertEquals("shape", shape.getString("type"));
    assertEquals("box1", shape.getJsonObject("shape").getString("id"));
    assertEquals(
        51,
        shape.getJsonObject("shape").getInteger("x"),
        "relative to the session origin (100, 50), rounded");
    assertEquals(30, shape.getJsonObject("shape").getInteger("y"));
    assertEquals(
        new JsonObject()
            .put("type", "area")
            .put("bounds", new JsonObject().put("x", 200).put("y", 10).put("w", 200).put("h", 100)),
        pinned.getJsonObject(1));
    assertEquals(
        new JsonObject().put("type", "point").put("x", 10).put("y", 26), pinned.getJsonObject(2));
    assertTrue(
        request.contextText().contains("## Context items the person pinned for you"),
        request.contextText());

    var cleared =
        Await.result(
            server
                .http()
                .patch("/api/sessions/" + sessionId)
                .sendJsonObject(new JsonObject().put("contextItems", new JsonArray())));
    assertEquals(200, cleared.statusCode());
    run(
        sse,
        new JsonObject()
            .put("roomId", roomId)
            .put("sessionId", sessionId)
            .put("message", "and now?")
            .put("model", CapturingModel.MODEL));
    assertFalse(
        model.requests().get(1).context().containsKey(ModelContext.CONTEXT_ITEMS),
        "cleared items are gone from the next run");
    Await.result(sse.close());
  }

  private void run(SseClient sse, JsonObject body) {
    var response = server.postRun(body);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String runId = response.bodyAsJsonObject().getString("runId");
    List<SseClient.SseEvent> events =
        Await.result(
            sse.awaitEvent(
                event ->
                    event.event().equals("agent:status")
                        && runId.equals(
                            event
                                .data()
                                .getJsonObject("detail", new JsonObject())
                                .getString("runId"))
                        && List.of("done", "error", "canceled")
                            .contains(event.data().getString("state"))));
    assertEquals("done", events.get(events.size() - 1).data().getString("state"));
  }
}
