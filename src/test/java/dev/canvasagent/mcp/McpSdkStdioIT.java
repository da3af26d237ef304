package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.vertx.core.json.JsonObject;
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

  @BeforeAll
  void start() {
    mcp = McpClients.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    String token = new TestTokens(vertx).admin();
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
}
