package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpClients;
import dev.canvasagent.support.McpClients.Client;
import dev.canvasagent.support.McpClients.McpFailure;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Refusals as a client nobody here wrote sees them (the official TypeScript SDK over Streamable HTTP,
 * auth on): what the protocol cannot take is a JSON-RPC error with the code MCP gives it (an unknown
 * tool -32602, an unknown resource -32002, an unknown method -32601), what a tool refuses is a result
 * with {@code isError} and a code naming the problem; none of them changes the board, and the session
 * goes on. One server and one Node process for the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpSdkRefusalsTest {
  static final String ROOM = "mcp-refusals";

  Vertx vertx;
  TestServer server;
  McpClients mcp;
  Client client;
  String token;

  @BeforeAll
  void start() {
    mcp = McpClients.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    token = new TestTokens(vertx).editor(ROOM);
    client = mcp.http("refused", "http://127.0.0.1:" + server.port() + "/mcp", token);
    JsonObject kept =
        client.callTool(
            "create_shape",
            new JsonObject()
                .put("roomId", ROOM)
                .put("id", "kept")
                .put("type", "rectangle")
                .put("x", 0)
                .put("y", 0));
    assertFalse(kept.getBoolean("isError", false), kept.encode());
  }

  @AfterAll
  void stop() {
    if (mcp != null) {
      mcp.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  JsonObject board() {
    HttpResponse<Buffer> got =
        Await.result(
            server
                .http()
                .get("/api/rooms/" + ROOM + "/board")
                .putHeader("authorization", TestTokens.bearer(token))
                .send());
    assertEquals(200, got.statusCode(), got.bodyAsString());
    return got.bodyAsJsonObject();
  }

  /** The refusal changed nothing and the same session still answers. */
  void nothingChanged(JsonObject before) {
    assertEquals(before, board(), "the board is as it was");
    assertTrue(client.listTools().getJsonArray("tools").size() > 0, "the session goes on");
  }

  static JsonObject toolError(JsonObject result) {
    assertTrue(result.getBoolean("isError", false), result.encode());
    JsonObject error = result.getJsonObject("structuredContent").getJsonObject("error");
    assertNotNull(error, result.encode());
    assertEquals(
        "text", result.getJsonArray("content").getJsonObject(0).getString("type"), "said as text");
    return error;
  }

  @Test
  void anUnknownToolIsInvalidParams() {
    JsonObject before = board();
    McpFailure refused =
        assertThrows(
            McpFailure.class,
            () -> client.callTool("draw_a_unicorn", new JsonObject().put("roomId", ROOM)));
    assertEquals(-32602, refused.code(), refused.getMessage());
    assertTrue(refused.reason().contains("draw_a_unicorn"), refused.reason());
    nothingChanged(before);
  }

  @Test
  void badArgumentsAreAToolErrorWithACode() {
    JsonObject before = board();
    JsonObject notANumber =
        toolError(
            client.callTool(
                "create_shape",
                new JsonObject()
                    .put("roomId", ROOM)
                    .put("id", "bad")
                    .put("type", "rectangle")
                    .put("x", "left")
                    .put("y", 0)));
    assertEquals("ACTION_INVALID", notANumber.getString("code"), notANumber.encode());

    JsonObject noDocument = toolError(client.callTool("canvas_check_out", new JsonObject()));
    assertEquals("INVALID_REQUEST", noDocument.getString("code"), noDocument.encode());
    assertTrue(noDocument.getString("message").contains("docId"), noDocument.encode());

    JsonObject unknownArgument =
        toolError(
            client.callTool("canvas_view", new JsonObject().put("roomId", ROOM).put("zoom", 2)));
    assertEquals("INVALID_REQUEST", unknownArgument.getString("code"), unknownArgument.encode());
    assertTrue(unknownArgument.getString("message").contains("zoom"), unknownArgument.encode());
    nothingChanged(before);
  }

  @Test
  void anUnknownResourceIsResourceNotFound() {
    McpFailure refused =
        assertThrows(McpFailure.class, () -> client.readResource("canvas://no/such/thing"));
    assertEquals(-32002, refused.code(), refused.getMessage());
    // The catalog the server does have still reads.
    assertEquals(
        "canvas://catalog",
        client
            .readResource("canvas://catalog")
            .getJsonArray("contents")
            .getJsonObject(0)
            .getString("uri"));
  }

  @Test
  void anUnknownMethodIsMethodNotFound() {
    JsonObject before = board();
    McpFailure refused =
        assertThrows(McpFailure.class, () -> client.request("board/erase_all", new JsonObject()));
    assertEquals(-32601, refused.code(), refused.getMessage());
    nothingChanged(before);
  }
}
