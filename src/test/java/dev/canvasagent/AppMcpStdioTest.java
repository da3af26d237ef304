package dev.canvasagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code java -jar canvas-agent.jar mcp-stdio …} reaches the stdio bridge's command line. */
class AppMcpStdioTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int mcpStdio(String... args) {
    return App.mcpStdio(
        args,
        Map.of(),
        new ByteArrayInputStream(new byte[0]),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void helpExitsZeroWithTheUsage() {
    assertEquals(0, mcpStdio("mcp-stdio", "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--url"), out.toString());
  }

  @Test
  void aMissingUrlExitsTwoNamingTheOption() {
    assertEquals(2, mcpStdio("mcp-stdio"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).startsWith("--url is required"), err.toString());
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }
}
