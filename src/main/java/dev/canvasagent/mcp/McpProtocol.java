package dev.canvasagent.mcp;

import java.util.List;

/**
 * The Model Context Protocol revisions this server speaks, and the names its Streamable HTTP transport
 * uses. A client asking for a revision not listed is answered with {@link #LATEST}, as the protocol's
 * version negotiation says; the client then decides whether it can go on.
 */
public final class McpProtocol {
  /** The newest revision served, answered to a client that asks for one this server does not know. */
  public static final String LATEST = "2025-11-25";

  /** Newest first. 2025-03-26 is what a request without {@link #VERSION_HEADER} is taken to speak. */
  public static final List<String> SUPPORTED = List.of(LATEST, "2025-06-18", "2025-03-26");

  public static final String SESSION_HEADER = "Mcp-Session-Id";
  public static final String VERSION_HEADER = "MCP-Protocol-Version";

  public static final String SERVER_NAME = "canvas-agent";

  private McpProtocol() {}

  public static boolean supported(String version) {
    return SUPPORTED.contains(version);
  }
}
