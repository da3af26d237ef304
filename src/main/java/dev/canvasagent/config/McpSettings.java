package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code mcp}: the MCP endpoint's sessions. */
final class McpSettings {
  static final Setting MAX_SESSIONS =
      Setting.of(
          "mcp.maxSessions",
          "CANVAS_AGENT_MCP_MAX_SESSIONS",
          whole(1, 100_000),
          1_000,
          "How many MCP sessions one node keeps at once; an initialize past it is answered 503 until one ends or idles out (1–100000).");
  static final Setting SESSION_IDLE_MS =
      Setting.of(
          "mcp.sessionIdleMs",
          "CANVAS_AGENT_MCP_SESSION_IDLE_MS",
          whole(10_000, 86_400_000),
          1_800_000,
          "How long an MCP session may go without a request or an open notification stream before it is ended with its subscriptions; its next request is answered 404 and the client initializes again (10000–86400000).");

  static final List<Setting> ALL = List.of(MAX_SESSIONS, SESSION_IDLE_MS);

  private McpSettings() {}

  static AppConfig.Mcp read(ConfigValues values) {
    return new AppConfig.Mcp(values.whole(MAX_SESSIONS), values.whole(SESSION_IDLE_MS));
  }
}
