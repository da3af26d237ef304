package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpHttp;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The board verbs as MCP tools over real HTTP: each call is sanitized, committed and broadcast like an
 * agent run's action, answers what it did, and a refusal names its code and changes nothing. Also
 * {@code canvas_view}, in the same page coordinates the verbs take.
 */
@ExtendWith(VertxExtension.class)
class McpBoardToolsTest {
  static final String ROOM = "mcp-board";

  TestServer server;
  TestTokens tokens;
  McpHttp mcp;

  @BeforeEach
  void start(Vertx vertx) {
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
    mcp = new McpHttp(server.http(), server.port(), tokens.editor(ROOM));
    mcp.initialize("");
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  JsonObject board() {
    return Await.result(
            server
                .http()
                .get("/api/rooms/" + ROOM + "/board")
                .putHeader("authorization", "Bearer " + tokens.editor(ROOM))
                .send())
        .bodyAsJsonObject();
  }

  static JsonObject box(String id, int x) {
    return new JsonObject()
        .put("roomId", ROOM)
        .put("id", id)
        .put("type", "rectangle")
        .put("x", x)
        .put("y", 80)
        .put("text", "Roadmap")
        .put("props", new JsonObject().put("w", 240).put("h", 120).put("color", "purple"));
  }

  static JsonObject error(JsonObject result) {
    assertTrue(result.getBoolean("isError"), result.encode());
    return result.getJsonObject("structuredContent").getJsonObject("error");
  }

  @Test
  void theBoardVerbsAreToolsWithTheCatalogsSchemasAndARoom() {
    JsonArray tools =
        mcp.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools");
    List<String> names = tools.stream().map(tool -> ((JsonObject) tool).getString("name")).toList();
    assertTrue(
        names.containsAll(
            List.of("create_shape", "batch_operations", "move", "align", "canvas_view")),
        names.toString());
    assertFalse(
        names.contains("think") || names.contains("todo") || names.contains("set_viewport"),
        names.toString());
    JsonObject create =
        tools.stream()
            .map(JsonObject.class::cast)
            .filter(tool -> tool.getString("name").equals("create_shape"))
            .findFirst()
            .orElseThrow();
    JsonObject schema = create.getJsonObject("inputSchema");
    assertEquals(
        "string", schema.getJsonObject("properties").getJsonObject("roomId").getString("type"));
    assertTrue(schema.getJsonObject("properties").containsKey("type"), schema.encode());
  }

  @Test
  void aCreateIsCommittedBroadcastAndAnsweredWithWhatItDid(Vertx vertx) {
    SseClient sse =
        Await.result(
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + ROOM + "/events?access_token=" + tokens.viewer(ROOM)));
    JsonObject result = mcp.tool("create_shape", box("title", 100));
    assertFalse(result.getBoolean("isError"), result.encode());
    JsonObject outcome = result.getJsonObject("structuredContent");
    assertEquals(List.of("shape:title"), outcome.getJsonArray("created").getList());
    assertTrue(outcome.getBoolean("changed"));
    assertEquals(ROOM, outcome.getString("roomId"));
    assertTrue(
        outcome.getJsonArray("adjusted").stream()
            .map(JsonObject.class::cast)
            .anyMatch(
                adjustment ->
                    adjustment.getString("path").equals("/type")
                        && adjustment.getString("applied").equals("geo")),
        outcome.encode());
    long revision = outcome.getLong("revision");

    List<SseEvent> events =
        Await.result(sse.awaitEvent(event -> event.event().equals("agent:action")));
    JsonObject envelope = events.get(events.size() - 1).data();
    assertEquals(revision, envelope.getLong("rev"));
    assertEquals(
        "create_shape", envelope.getJsonArray("actions").getJsonObject(0).getString("name"));
    Await.result(sse.close());

    JsonObject board = board();
    assertEquals(revision, board.getLong("revision"));
    assertTrue(
        board.getJsonArray("records").stream()
            .anyMatch(record -> ((JsonObject) record).getString("id").equals("shape:title")));

    JsonObject moved =
        mcp.tool(
            "move",
            new JsonObject()
                .put("roomId", ROOM)
                .put("shapeIds", new JsonArray().add("title"))
                .put("dx", 50)
                .put("dy", 0));
    assertEquals(
        List.of("shape:title"),
        moved.getJsonObject("structuredContent").getJsonArray("updated").getList());
    JsonObject view = mcp.tool("canvas_view", new JsonObject().put("roomId", ROOM));
    JsonArray shapes = view.getJsonObject("structuredContent").getJsonArray("shapes");
    assertEquals(1, shapes.size(), view.encode());
    assertEquals(
        150,
        shapes.getJsonObject(0).getNumber("x").intValue(),
        "page coordinates: " + shapes.encode());
  }

  @Test
  void aBatchReportsWhatItDropped() {
    JsonObject batch =
        new JsonObject()
            .put("roomId", ROOM)
            .put("title", "Plan")
            .put(
                "operations",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("op", "createFrame")
                            .put("ref", "f1")
                            .put("name", "Now"))
                    .add(
                        new JsonObject()
                            .put("op", "createNote")
                            .put("ref", "n1")
                            .put("parentRef", "nowhere")
                            .put("text", "orphan")));
    JsonObject result = mcp.tool("batch_operations", batch);
    assertFalse(result.getBoolean("isError"), result.encode());
    JsonObject outcome = result.getJsonObject("structuredContent");
    assertFalse(outcome.getJsonArray("created").isEmpty(), outcome.encode());
    assertFalse(outcome.getJsonArray("dropped").isEmpty(), outcome.encode());
  }

  @Test
  void refusalsNameTheProblemAndChangeNothing(Vertx vertx) {
    mcp.tool("create_shape", box("kept", 0));
    long before = board().getLong("revision");

    assertEquals(
        "ACTION_INVALID",
        error(mcp.tool("create_shape", box("bad", 0).put("x", "left"))).getString("code"));
    assertEquals(
        "SHAPE_NOT_FOUND",
        error(
                mcp.tool(
                    "move",
                    new JsonObject()
                        .put("roomId", ROOM)
                        .put("shapeIds", new JsonArray().add("ghost"))
                        .put("dx", 1)
                        .put("dy", 1)))
            .getString("code"));
    assertEquals(
        "ACTION_INVALID", error(mcp.tool("create_shape", box("kept", 10))).getString("code"));
    assertEquals(
        "FORBIDDEN",
        error(mcp.tool("create_shape", box("elsewhere", 0).put("roomId", "other-room")))
            .getString("code"));
    assertEquals(
        "INVALID_REQUEST",
        error(mcp.tool("create_shape", box("nobody", 0).put("roomId", "a.b"))).getString("code"));
    JsonObject noRoom = box("x", 0);
    noRoom.remove("roomId");
    JsonObject unbound = error(mcp.tool("create_shape", noRoom));
    assertTrue(unbound.getString("message").contains("/mcp?room="), unbound.encode());

    McpHttp viewer = new McpHttp(server.http(), server.port(), tokens.viewer(ROOM));
    viewer.initialize("");
    assertEquals("FORBIDDEN", error(viewer.tool("create_shape", box("peek", 0))).getString("code"));
    assertFalse(
        viewer.tool("canvas_view", new JsonObject().put("roomId", ROOM)).getBoolean("isError"),
        "a viewer may look");

    assertEquals(before, board().getLong("revision"), "nothing was committed");
  }

  JsonArray roomSessions() {
    return Await.result(
            server
                .http()
                .get("/api/sessions?roomId=" + ROOM)
                .putHeader("authorization", "Bearer " + tokens.editor(ROOM))
                .send())
        .bodyAsJsonObject()
        .getJsonArray("sessions");
  }

  @Test
  void aRefusedFirstCallLeavesNoCanvasSessionBehindAndTheNextMakesOne() {
    assertTrue(roomSessions().isEmpty(), roomSessions().encode());
    JsonObject refused =
        mcp.tool(
            "move",
            new JsonObject()
                .put("roomId", ROOM)
                .put("shapeIds", new JsonArray().add("ghost"))
                .put("dx", 1)
                .put("dy", 1));
    assertEquals("SHAPE_NOT_FOUND", error(refused).getString("code"));
    assertTrue(roomSessions().isEmpty(), "a refusal changes nothing: " + roomSessions().encode());

    mcp.tool("create_shape", box("first", 0));
    mcp.tool("create_shape", box("second", 300));
    JsonArray sessions = roomSessions();
    assertEquals(1, sessions.size(), sessions.encode());
    assertTrue(sessions.getJsonObject(0).getString("title").startsWith("MCP: "), sessions.encode());
  }

  @Test
  void aSessionOpenedForARoomActsThereWithoutNamingIt() {
    McpHttp bound = new McpHttp(server.http(), server.port(), tokens.editor(ROOM));
    bound.initialize("?room=" + ROOM);
    JsonObject create = box("bound", 0);
    create.remove("roomId");
    JsonObject result = bound.tool("create_shape", create);
    assertFalse(result.getBoolean("isError"), result.encode());
    assertEquals(ROOM, result.getJsonObject("structuredContent").getString("roomId"));
  }

  @Test
  void aViewWithoutAHostSaysWhyItHasNoImage() {
    mcp.tool("create_shape", box("seen", 0));
    JsonObject view =
        mcp.tool("canvas_view", new JsonObject().put("roomId", ROOM).put("screenshot", true));
    assertFalse(view.getBoolean("isError"), view.encode());
    JsonObject structured = view.getJsonObject("structuredContent");
    assertEquals(
        "NO_HOST",
        structured.getJsonObject("imageUnavailable").getString("code"),
        structured.encode());
    assertEquals(1, view.getJsonArray("content").size(), "no image content");
    assertEquals(
        "INVALID_REQUEST",
        error(
                mcp.tool(
                    "canvas_view",
                    new JsonObject()
                        .put("roomId", ROOM)
                        .put(
                            "viewport",
                            new JsonObject().put("x", 0).put("y", 0).put("w", -5).put("h", 1))))
            .getString("code"));
    assertEquals(
        "INVALID_REQUEST",
        error(mcp.tool("canvas_view", new JsonObject().put("roomId", ROOM).put("zoom", 2)))
            .getString("code"));
  }
}
