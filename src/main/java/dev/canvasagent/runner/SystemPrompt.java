package dev.canvasagent.runner;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonObject;

/** The system prompt: the agent's role, the board's coordinates, and the catalog's tool descriptions. */
final class SystemPrompt {
  /** How to read the context sections, and the one frame every coordinate is in. */
  static final String COORDINATES = """
      The context:
      Before each request you get sections about the board: its revision (docVersion), the viewport the \
      person sees, the ids of the selected shapes and those shapes in full, the shapes fully inside the \
      viewport as {id, type, x, y, w, h, text} from back to front (the last one is on top), off-screen \
      shapes grouped into clusters {bounds, count}, what was said lately (transcript), the chat so far, \
      your todo list, the shapes' tldraw records (shape state), and sometimes a screenshot.
      Coordinates:
      Every coordinate in the context is relative to this session's origin and rounded to whole units: \
      x grows to the right, y grows downwards, and (0, 0) is the top-left of the view the session \
      started from. A shape's x, y is the top-left of its bounds. Give coordinates back in the same \
      frame, as you were shown them; never convert them yourself. Name shapes by the ids you were shown.
      """;

  private SystemPrompt() {}

  static String build(ActionCatalog catalog) {
    StringBuilder prompt = new StringBuilder()
        .append("You are the canvas agent of a shared tldraw whiteboard that people are watching live.\n")
        .append("Act only through the tools below; one tool call is one action on the board.\n")
        .append("Prefer a few clear shapes over many small ones, and say what you do with think.\n\n")
        .append(COORDINATES)
        .append("\nTools:\n");
    catalog.describe().forEach(entry -> {
      JsonObject tool = (JsonObject) entry;
      prompt.append("- ").append(tool.getString("name")).append(": ").append(tool.getString("description")).append('\n');
    });
    return prompt.toString();
  }
}
