package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Role;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpClients;
import dev.canvasagent.support.McpClients.Client;
import dev.canvasagent.support.McpClients.McpFailure;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The official MCP TypeScript SDK's client (a client nobody here wrote) against our {@code /mcp} over
 * Streamable HTTP, with auth on: it initializes, lists the catalog's tools with their schemas, and is
 * refused as the protocol says. One Node process for the class, one server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpSdkClientTest {
  Vertx vertx;
  TestServer server;
  McpClients mcp;
  TestTokens tokens;
  Client client;

  @BeforeAll
  void start() {
    mcp = McpClients.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
    client = mcp.http("sdk", url(), tokens.admin());
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

  String url() {
    return "http://127.0.0.1:" + server.port() + "/mcp";
  }

  @Test
  void initializeNamesTheServerAndGivesASession() {
    assertEquals("canvas-agent", client.serverInfo().getString("name"));
    assertNotNull(client.protocolVersion(), "a negotiated protocol version");
    assertNotNull(client.sessionId(), "an Mcp-Session-Id");
    assertNotNull(client.capabilities().getJsonObject("tools"), "the tools capability");
  }

  @Test
  void listsTheCatalogToolsWithObjectSchemas() {
    Map<String, JsonObject> tools =
        client.listTools().getJsonArray("tools").stream()
            .map(JsonObject.class::cast)
            .collect(Collectors.toMap(tool -> tool.getString("name"), tool -> tool));
    for (String name : List.of("create_shape", "canvas_read_all")) {
      JsonObject tool = tools.get(name);
      assertNotNull(tool, name + " among " + tools.keySet());
      assertEquals("object", tool.getJsonObject("inputSchema").getString("type"), name);
    }
  }

  @Test
  void anUnknownMethodIsMethodNotFoundAndTheSessionGoesOn() {
    McpFailure refused =
        assertThrows(
            McpFailure.class, () -> client.request("canvas/no_such_method", new JsonObject()));
    assertEquals(-32601, refused.code(), refused.getMessage());
    // The refusal changed nothing: the same session still answers.
    assertTrue(client.listTools().getJsonArray("tools").size() > 0);
  }

  @Test
  void aTokenSignedWithAnotherSecretCannotConnect() {
    String forged =
        AccessTokens.create(vertx, TestTokens.auth("another-secret-0123456789abcdef-0123456789"))
            .mint("mallory", List.of(), List.of(), Role.ADMIN, Duration.ofHours(1));
    McpFailure refused = assertThrows(McpFailure.class, () -> mcp.http("forged", url(), forged));
    assertEquals(401, refused.code(), refused.getMessage());
    assertTrue(refused.getMessage().contains("401"), refused.getMessage());
  }

  @Test
  void noTokenCannotConnect() {
    McpFailure refused =
        assertThrows(
            McpFailure.class, () -> mcp.http("anonymous", url(), Optional.empty(), Map.of()));
    assertEquals(401, refused.code(), refused.getMessage());
  }
}
