package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.RichText;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.WsClient;
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
 * What a run's model is asked, end to end over HTTP: the room's board, transcript, the requester's
 * viewport and selection (or the host's), the session's chat, all in the session's coordinate frame.
 */
@ExtendWith(VertxExtension.class)
class RunContextTest {
  Vertx vertx;
  CapturingModel model;
  TestServer server;
  String roomId;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    model = new CapturingModel(vertx);
    server = TestServer.start(vertx, TestServer.config(Map.of()), List.of(model));
    roomId = "context-" + UUID.randomUUID().toString().substring(0, 8);
    JsonObject box = TestShapes.geo("box1", 150.6, 80, 100, 50);
    box.getJsonObject("props").put("richText", RichText.of("A"));
    JsonObject change =
        new JsonObject()
            .put("baseRevision", 0)
            .put(
                "put",
                new JsonArray()
                    .add(box)
                    .add(TestShapes.at("a2", TestShapes.geo("far", 5000, 5000, 10, 10))));
    var changed =
        Await.result(
            server.http().post("/api/rooms/" + roomId + "/changes").sendJsonObject(change));
    assertEquals(200, changed.statusCode(), changed.bodyAsString());
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  @Test
  void theModelGetsTheRoomsContextInTheSessionsFrame() {
    var said =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + roomId + "/transcript")
                .sendJsonObject(
                    new JsonObject().put("speaker", "ana").put("text", "make it blue")));
    assertEquals(201, said.statusCode(), said.bodyAsString());
    SseClient sse = server.events(roomId);

    String sessionId =
        run(
            sse,
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "make the box blue")
                .put("model", CapturingModel.MODEL)
                .put("viewport", viewport(100, 50))
                .put("selection", new JsonArray().add("box1").add("ghost")));

    ModelRequest first = model.requests().get(0);
    JsonObject context = first.context();
    assertEquals("make the box blue", first.userMessage());
    assertEquals(
        new JsonObject().put("x", 0).put("y", 0).put("w", 800).put("h", 600),
        context.getJsonObject(ModelContext.VIEWPORT));
    assertEquals(
        new JsonArray().add("box1"),
        context.getJsonArray(ModelContext.SELECTION),
        "the unknown id is ignored");
    assertEquals(
        new JsonArray()
            .add(
                new JsonObject()
                    .put("id", "box1")
                    .put("type", "rectangle")
                    .put("x", 51)
                    .put("y", 30)
                    .put("w", 100)
                    .put("h", 50)
                    .put("text", "A")),
        context.getJsonArray(ModelContext.SHAPES));
    assertEquals(
        1, context.getJsonArray(ModelContext.PERIPHERAL).getJsonObject(0).getInteger("count"));
    assertEquals(
        "box1",
        context.getJsonArray(ModelContext.SELECTED_SHAPES).getJsonObject(0).getString("id"));
    assertEquals(
        "make it blue",
        context.getJsonArray(ModelContext.TRANSCRIPT).getJsonObject(0).getString("text"));
    assertEquals("1", context.getString(ModelContext.DOC_VERSION));
    assertFalse(context.containsKey(ModelContext.CHAT), "nothing was said in this session before");
    assertTrue(
        first.contextText().contains("## Shape state (tldraw records)"), first.contextText());
    assertTrue(first.systemPrompt().contains("relative to this session's origin"));
    assertNull(first.screenshot(), "no host, no screenshot: text-only");

    run(
        sse,
        new JsonObject()
            .put("roomId", roomId)
            .put("sessionId", sessionId)
            .put("message", "now move it")
            .put("model", CapturingModel.MODEL)
            .put("viewport", viewport(120, 50)));

    JsonObject second = model.requests().get(1).context();
    assertEquals(
        20,
        second.getJsonObject(ModelContext.VIEWPORT).getInteger("x"),
        "the session keeps its first origin");
    assertEquals(51, second.getJsonArray(ModelContext.SHAPES).getJsonObject(0).getInteger("x"));
    assertEquals(
        new JsonArray()
            .add(new JsonObject().put("role", "user").put("text", "make the box blue"))
            .add(new JsonObject().put("role", "assistant").put("text", CapturingModel.THOUGHT)),
        second.getJsonArray(ModelContext.CHAT));
  }

  @Test
  void withoutViewportAndSelectionTheHostsCountAndItsScreenshotIsAttached() {
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    host.send(
        "canvas:viewport",
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 140).put("y", 70).put("w", 400).put("h", 300))
            .put("selection", new JsonArray().add("shape:box1")));
    // A frame the bridge refuses comes back after the viewport was handled: then the viewport is
    // in.
    host.send(
        "agent:ack",
        new JsonObject().put("sessionId", "none").put("seq", 1).put("clientId", host.clientId()));
    Await.result(host.awaitTopic("error", error -> "ACK_UNKNOWN".equals(error.getString("code"))));
    SseClient sse = server.events(roomId);

    run(
        sse,
        new JsonObject()
            .put("roomId", roomId)
            .put("message", "what is selected?")
            .put("model", CapturingModel.MODEL));

    ModelRequest request = model.requests().get(0);
    assertEquals(
        new JsonObject().put("x", 0).put("y", 0).put("w", 400).put("h", 300),
        request.context().getJsonObject(ModelContext.VIEWPORT),
        "the host's viewport, and the session's origin is its top-left");
    assertEquals(
        new JsonArray().add("box1"), request.context().getJsonArray(ModelContext.SELECTION));
    assertEquals(
        11, request.context().getJsonArray(ModelContext.SHAPES).getJsonObject(0).getInteger("x"));
    assertEquals("image/png", request.screenshot().mediaType());
    assertTrue(request.contextText().contains("## Screenshot"));
  }

  private static JsonObject viewport(double x, double y) {
    return new JsonObject().put("x", x).put("y", y).put("w", 800).put("h", 600);
  }

  private String run(SseClient sse, JsonObject body) {
    var response = server.postRun(body);
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
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
    SseClient.SseEvent last = events.get(events.size() - 1);
    assertEquals("done", last.data().getString("state"), last.data().encode());
    return sessionId;
  }
}
