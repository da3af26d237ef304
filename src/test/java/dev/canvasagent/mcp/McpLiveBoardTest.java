package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.BrowserPages;
import dev.canvasagent.support.BrowserPages.Page;
import dev.canvasagent.support.McpClients;
import dev.canvasagent.support.McpClients.Client;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WebBuild;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What an MCP client nobody here wrote (the official TypeScript SDK over Streamable HTTP, auth on)
 * does to a board while people watch it: the web client's page in real Chromium with the room open in
 * its tldraw editor, and an SSE stream. Each tool call reaches both as an {@code agent:action}
 * envelope carrying the tool's action, the page's editor holds the shapes the tool says it created,
 * and {@code canvas_view} shows them, with the hosting page's screenshot as image content. One server,
 * one browser and one MCP client process for the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpLiveBoardTest {
  static final String ROOM = "mcp-live";
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots");

  /** Connected, the board loaded, its client id known, and hosting the room. */
  static final String READY_HOST =
      "window.canvasAgent?.status?.state === 'open' && window.canvasAgent.status.revision !== null"
          + " && window.canvasAgent.connection.clientId !== null && window.canvasAgent.status.isHost";

  /** Everything the page is told on {@code agent:action}, final envelopes only, kept in the page. */
  static final String RECORD_ENVELOPES =
      "(() => { window.mcpEnvelopes = [];"
          + " window.canvasAgent.subscribe((topic, body) => {"
          + " if (topic === 'agent:action' && !body.partial) window.mcpEnvelopes.push(body) });"
          + " return true })()";

  Vertx vertx;
  TestServer server;
  BrowserPages browser;
  McpClients mcp;
  TestTokens tokens;

  @BeforeAll
  void start() {
    WebBuild.require();
    browser = BrowserPages.start();
    mcp = McpClients.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
  }

  @AfterAll
  void stop() {
    if (mcp != null) {
      mcp.close();
    }
    if (browser != null) {
      browser.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  String base() {
    return "http://127.0.0.1:" + server.port();
  }

  static JsonObject outcome(JsonObject result) {
    assertFalse(result.getBoolean("isError", false), result.encode());
    return result.getJsonObject("structuredContent");
  }

  static List<String> strings(JsonArray array) {
    return array.stream().map(String::valueOf).toList();
  }

  /** The final {@code agent:action} envelope carrying the action named {@code tool}. */
  static JsonObject envelopeOf(List<SseEvent> events, String tool) {
    return events.stream()
        .filter(event -> event.event().equals("agent:action"))
        .map(SseEvent::data)
        .filter(data -> !data.getBoolean("partial", false))
        .filter(data -> carries(data, tool))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no agent:action with " + tool + " in " + events));
  }

  static boolean carries(JsonObject envelope, String tool) {
    JsonArray actions = envelope.getJsonArray("actions", new JsonArray());
    return actions.stream()
        .anyMatch(action -> tool.equals(((JsonObject) action).getString("name")));
  }

  @Test
  void theClientsToolsReachTheEditorAndTheStreamAndTheViewShowsThem() {
    String editor = tokens.editor(ROOM);
    Page page = browser.open("watching", base() + "/?room=" + ROOM + "&token=" + editor);
    page.waitFor(READY_HOST, "a connected page hosting the room");
    page.eval(RECORD_ENVELOPES);
    SseClient sse =
        Await.result(
            SseClient.connect(
                vertx,
                server.port(),
                "/api/rooms/" + ROOM + "/events?access_token=" + tokens.viewer(ROOM)));

    Client client = mcp.http("live", base() + "/mcp", editor);
    assertEquals("canvas-agent", client.serverInfo().getString("name"));
    assertNotNull(client.sessionId(), "a Streamable HTTP session");
    Set<String> tools =
        client.listTools().getJsonArray("tools").stream()
            .map(tool -> ((JsonObject) tool).getString("name"))
            .collect(Collectors.toSet());
    assertTrue(
        tools.containsAll(List.of("create_shape", "batch_operations", "canvas_view")),
        tools.toString());
    assertTrue(
        client.listResources().getJsonArray("resources").stream()
            .anyMatch(r -> "canvas://catalog".equals(((JsonObject) r).getString("uri"))),
        "the catalog among the resources");

    JsonObject created =
        outcome(
            client.callTool(
                "create_shape",
                new JsonObject()
                    .put("roomId", ROOM)
                    .put("id", "title")
                    .put("type", "rectangle")
                    .put("x", 100)
                    .put("y", 80)
                    .put("text", "Roadmap")
                    .put("props", new JsonObject().put("w", 240).put("h", 120))));
    assertEquals(List.of("shape:title"), strings(created.getJsonArray("created")));
    JsonObject batch =
        outcome(
            client.callTool(
                "batch_operations",
                new JsonObject()
                    .put("roomId", ROOM)
                    .put("title", "Plan")
                    .put(
                        "operations",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("op", "createFrame")
                                    .put("ref", "now")
                                    .put("name", "Now"))
                            .add(
                                new JsonObject()
                                    .put("op", "createNote")
                                    .put("ref", "first")
                                    .put("parentRef", "now")
                                    .put("text", "Ship it")))));
    List<String> batchShapes =
        strings(batch.getJsonArray("created")).stream()
            .filter(id -> id.startsWith("shape:"))
            .toList();
    assertTrue(batchShapes.size() >= 2, "a frame and a note: " + batch.encode());
    long revision = batch.getLong("revision");

    // The SSE client hears both envelopes, each with its tool's action, the batch's last.
    List<SseEvent> heard =
        Await.result(
            sse.awaitEvent(
                event ->
                    event.event().equals("agent:action")
                        && carries(event.data(), "batch_operations")));
    assertEquals(created.getLong("revision"), envelopeOf(heard, "create_shape").getLong("rev"));
    assertEquals(revision, envelopeOf(heard, "batch_operations").getLong("rev"));
    Await.result(sse.close());

    // The page was told the same envelopes, and its editor holds every shape the tools created.
    page.waitFor(
        "window.mcpEnvelopes.some(e => e.actions.some(a => a.name === 'create_shape'))"
            + " && window.mcpEnvelopes.some(e => e.actions.some(a => a.name === 'batch_operations'))",
        "both envelopes in the page");
    List<String> shapes = new ArrayList<>(created.getJsonArray("created").getList());
    shapes.addAll(batchShapes);
    String held =
        new JsonArray(shapes).encode() + ".every(id => window.canvasAgent.editor.getShape(id))";
    page.waitFor(held, "the tools' shapes in the editor");
    page.waitFor(
        "window.canvasAgent.status.revision >= " + revision, "the batch's revision in the page");
    // canvas_view shows them, in the page coordinates the tools took.
    JsonObject view =
        outcome(
            client.callTool(
                "canvas_view",
                new JsonObject()
                    .put("roomId", ROOM)
                    .put(
                        "viewport",
                        new JsonObject()
                            .put("x", -2000)
                            .put("y", -2000)
                            .put("w", 8000)
                            .put("h", 8000))));
    Set<String> seen =
        view.getJsonArray("shapes").stream()
            .map(shape -> ((JsonObject) shape).getString("id"))
            .collect(Collectors.toSet());
    for (String id : shapes) {
      assertTrue(seen.contains(id.substring("shape:".length())), id + " in view: " + seen);
    }
    JsonObject title =
        view.getJsonArray("shapes").stream()
            .map(JsonObject.class::cast)
            .filter(shape -> "title".equals(shape.getString("id")))
            .findFirst()
            .orElseThrow();
    assertEquals(100, title.getNumber("x").intValue(), title.encode());
    assertEquals(80, title.getNumber("y").intValue(), title.encode());

    // The page hosts the room, so a view with a screenshot carries the image it rendered.
    JsonObject pictured =
        client.callTool(
            "canvas_view", new JsonObject().put("roomId", ROOM).put("screenshot", true));
    assertFalse(pictured.getBoolean("isError", false), pictured.encode());
    JsonObject image =
        pictured.getJsonArray("content").stream()
            .map(JsonObject.class::cast)
            .filter(content -> "image".equals(content.getString("type")))
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no image content: " + pictured.getJsonObject("structuredContent")));
    assertTrue(image.getString("mimeType").startsWith("image/"), image.getString("mimeType"));
    assertTrue(Base64.getDecoder().decode(image.getString("data")).length > 0, "image bytes");
    // The page counts its answer once the send is acknowledged, which may trail the server's reply.
    page.waitFor(
        "window.canvasAgent.screenshots.answered >= 1", "the page answered the screenshot request");

    page.screenshot(SCREENSHOTS.resolve("mcp-live-board.png"));
    assertEquals(List.of(), page.errors(), "the page logged no error");
    page.close();
    client.terminate();
  }
}
