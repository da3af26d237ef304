package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import io.vertx.core.json.JsonObject;

/**
 * One {@code tools/call}: the tool's arguments as the client sent them, the MCP session it came in
 * (who acts, its bound room), the grant of this request's token (what it may reach), and where to
 * report progress.
 */
public record ToolCall(
    McpSession session, Grant grant, JsonObject arguments, ToolProgress progress) {}
