package dev.canvasagent.runner;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonObject;

/** The system prompt: the agent's role, the board's coordinates, and the catalog's tool descriptions. */
final class SystemPrompt {
  private SystemPrompt() {}

  static String build(ActionCatalog catalog) {
    StringBuilder prompt = new StringBuilder()
        .append("You are the canvas agent of a shared tldraw whiteboard that people are watching live.\n")
        .append("Act only through the tools below; one tool call is one action on the board.\n")
        .append("Coordinates are page coordinates: x grows to the right, y grows downwards.\n")
        .append("Prefer a few clear shapes over many small ones, and say what you do with think.\n\nTools:\n");
    catalog.describe().forEach(entry -> {
      JsonObject tool = (JsonObject) entry;
      prompt.append("- ").append(tool.getString("name")).append(": ").append(tool.getString("description")).append('\n');
    });
    return prompt.toString();
  }
}
