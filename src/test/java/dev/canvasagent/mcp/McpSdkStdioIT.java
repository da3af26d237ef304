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
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The official MCP TypeScript SDK's client over stdio, as Claude Desktop launches a local server: it
 * runs the packaged {@code java -jar target/canvas-agent.jar mcp-stdio --url … --token …}, which
 * bridges it to a running server's {@code /mcp}. After {@code package}, so an integration test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpSdkStdioIT {
  static final Path JAR = Path.of("target", "canvas-agent.jar").toAbsolutePath();

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
    token = new TestTokens(vertx).admin();
    client =
        mcp.stdio(
            "stdio",
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            List.of(
                "-jar",
                JAR.toString(),
                "mcp-stdio",
                "--url",
                "http://127.0.0.1:" + server.port() + "/mcp",
                "--token",
                token),
            Map.of());
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

  @Test
  void theBridgeInitializesAndListsTheTools() {
    assertEquals("canvas-agent", client.serverInfo().getString("name"), mcp.errors());
    assertNotNull(client.protocolVersion());
    List<String> names =
        client.listTools().getJsonArray("tools").stream()
            .map(tool -> ((JsonObject) tool).getString("name"))
            .toList();
    assertTrue(names.contains("create_shape"), names.toString());
    assertTrue(names.contains("canvas_read_all"), names.toString());
  }

  @Test
  void anUnknownMethodIsMethodNotFoundThroughTheBridge() {
    McpFailure refused =
        assertThrows(
            McpFailure.class, () -> client.request("canvas/no_such_method", new JsonObject()));
    assertEquals(-32601, refused.code(), refused.getMessage());
    assertTrue(client.listTools().getJsonArray("tools").size() > 0);
  }

  @Test
  void aShapeCreatedThroughStdioIsOnTheBoard() {
    JsonObject result =
        client.callTool(
            "create_shape",
            new JsonObject()
                .put("roomId", "mcp-stdio-room")
                .put("id", "through-stdio")
                .put("type", "rectangle")
                .put("x", 40)
                .put("y", 60)
                .put("text", "Hello"));
    assertFalse(result.getBoolean("isError", false), result.encode() + mcp.errors());
    JsonObject outcome = result.getJsonObject("structuredContent");
    assertEquals(List.of("shape:through-stdio"), outcome.getJsonArray("created").getList());

    HttpResponse<Buffer> board =
        Await.result(
            server
                .http()
                .get("/api/rooms/mcp-stdio-room/board")
                .putHeader("authorization", TestTokens.bearer(token))
                .send());
    assertEquals(200, board.statusCode(), board.bodyAsString());
    assertEquals(outcome.getLong("revision"), board.bodyAsJsonObject().getLong("revision"));
    JsonArray records = board.bodyAsJsonObject().getJsonArray("records");
    JsonObject shape =
        records.stream()
            .map(JsonObject.class::cast)
            .filter(record -> "shape:through-stdio".equals(record.getString("id")))
            .findFirst()
            .orElseThrow(() -> new AssertionError("not on the board: " + records));
    assertEquals(40, shape.getNumber("x").intValue(), shape.encode());
    assertEquals(60, shape.getNumber("y").intValue(), shape.encode());
  }
}
