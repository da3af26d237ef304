package dev.canvasagent.mcpstdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The command line: its options, their refusals (exit 2, naming the option), and one whole run. */
class McpStdioCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Map<String, String> env, String stdin, String... args) {
    return McpStdioCommand.run(
        List.of(args),
        env,
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpPrintsTheUsage() {
    assertEquals(0, run(Map.of(), "", "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: mcp-stdio --url"));
  }

  @Test
  void badOptionsAreRefusedNamingTheOption() {
    assertEquals(2, run(Map.of(), ""));
    assertTrue(err().startsWith("--url is required"), err());
    err.reset();
    assertEquals(2, run(Map.of(), "", "--url", "ftp://127.0.0.1/mcp"));
    assertTrue(err().startsWith("--url must be an http:// or https:// URL"), err());
    err.reset();
    assertEquals(2, run(Map.of(), "", "--url", "http://127.0.0.1:8080/mcp", "--token"));
    assertTrue(err().startsWith("--token needs a value"), err());
    err.reset();
    assertEquals(2, run(Map.of(), "", "--url", "http://127.0.0.1:8080/mcp", "--verbose", "1"));
    assertTrue(err().startsWith("unknown option --verbose"), err());
    assertEquals("", out.toString(StandardCharsets.UTF_8), "stdout stays the protocol's");
  }

  @Test
  void theTokenComesFromTheOptionElseTheEnvironmentAndIsNeverShown() throws Exception {
    String url = "http://127.0.0.1:8080/mcp";
    McpServerTarget fromOption =
        McpStdioCommand.parse(
            List.of("--url", url, "--token", "opt-secret"), Map.of("CANVAS_AGENT_TOKEN", "env"));
    assertEquals(Optional.of("opt-secret"), fromOption.token());
    assertFalse(fromOption.toString().contains("opt-secret"), fromOption.toString());
    assertEquals(
        Optional.of("env-secret"),
        McpStdioCommand.parse(List.of("--url", url), Map.of("CANVAS_AGENT_TOKEN", "env-secret"))
            .token());
    assertEquals(
        Optional.empty(),
        McpStdioCommand.parse(List.of("--url", url), Map.of("CANVAS_AGENT_TOKEN", " ")).token());
    assertThrows(
        McpStdioCommand.UsageException.class,
        () -> McpStdioCommand.parse(List.of("--url", "not a url"), Map.of()));
  }

  @Test
  void aWholeRunForwardsStdinAndEndsWithExitZeroAtItsEnd() {
    Vertx vertx = Vertx.vertx();
    try {
      FakeMcpServer server = new FakeMcpServer(vertx);
      String url = "http://127.0.0.1:" + Await.result(server.start()) + "/mcp";
      String stdin =
          PipedBridge.request(1, "initialize", null).encode()
              + "\n"
              + PipedBridge.request(2, "ping", null).encode()
              + "\n";
      assertEquals(0, run(Map.of("CANVAS_AGENT_TOKEN", "env-secret"), stdin, "--url", url));
      String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
      assertEquals(2, lines.length, out.toString(StandardCharsets.UTF_8));
      assertTrue(lines[1].contains("\"id\":2"), lines[1]);
      assertEquals(1, server.received(HttpMethod.DELETE).size());
      assertEquals(
          "Bearer env-secret", server.received(HttpMethod.POST).get(1).header("Authorization"));
      assertFalse(err().contains("env-secret"), err());
    } finally {
      Await.result(vertx.close());
    }
  }
}
