package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpInspector;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The MCP Inspector's CLI, another client nobody here wrote, lists our tools; without a token it is refused. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpInspectorSmokeTest {
  Vertx vertx;
  TestServer server;
  TestTokens tokens;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
  }

  @AfterAll
  void stop() {
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
  void theInspectorListsTheTools() {
    McpInspector.Result run = McpInspector.toolsList(url(), Optional.of(tokens.admin()));
    assertEquals(0, run.exitCode(), run.stderr());
    List<String> names =
        run.json().getJsonArray("tools").stream()
            .map(tool -> ((JsonObject) tool).getString("name"))
            .toList();
    assertTrue(names.contains("create_shape"), names.toString());
    assertTrue(names.contains("canvas_read_all"), names.toString());
  }

  @Test
  void theInspectorWithoutATokenIsRefused() {
    McpInspector.Result run = McpInspector.toolsList(url(), Optional.empty());
    assertNotEquals(0, run.exitCode(), run.stdout());
    assertFalse(run.stdout().contains("create_shape"), run.stdout());
  }
}
