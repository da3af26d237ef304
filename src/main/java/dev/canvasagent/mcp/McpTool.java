package dev.canvasagent.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One tool of {@code tools/list}. Its input schema comes from the same JSON Schema files as the HTTP
 * API's catalog ({@code catalog/*.json}, {@code doctools/*.json}), so a tool and its REST twin never
 * disagree. {@link #call} answers a {@link ToolResult}. A refusal may be a {@link
 * dev.canvasagent.bus.Failure} thrown or failed with: it is answered as {@link ToolResult#error} with its
 * code; any other failure as an INTERNAL one with a correlation id (and logged).
 */
public interface McpTool {
  String name();

  /** {@code {name, title?, description, inputSchema, outputSchema?, annotations?}}. */
  JsonObject descriptor();

  Future<ToolResult> call(ToolCall call);
}
