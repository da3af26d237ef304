package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import io.vertx.core.json.JsonObject;

/**
 * One {@code tools/call}: the tool's arguments as the client sent them, the MCP session it came in
 * (who acts, its bound room), the grant of this request's token (what it may reach), where to report
 * progress, and the client's cancellation of it.
 */
public record ToolCall(
    McpSession session,
    Grant grant,
    JsonObject arguments,
    ToolProgress progress,
    Cancellation cancellation) {}
