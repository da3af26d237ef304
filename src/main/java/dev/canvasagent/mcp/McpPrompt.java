package dev.canvasagent.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** A prompt of {@code prompts/list}: a ready-made request a person can pick in their MCP client. */
public interface McpPrompt {
  String name();

  /** {@code {name, title?, description, arguments: [{name, description, required}]}}. */
  JsonObject descriptor();

  /** {@code prompts/get}'s result: {@code {description, messages}}; INVALID_REQUEST for bad arguments. */
  Future<JsonObject> get(JsonObject arguments);
}
