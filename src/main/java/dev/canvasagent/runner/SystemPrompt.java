package dev.canvasagent.runner;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.runner.context.PromptParts;
import io.vertx.core.json.JsonObject;

/** The system prompt: the agent's role, the board's coordinates, and the catalog's tool descriptions. */
final class SystemPrompt {
  /** How to read the context sections (the registered prompt parts), and the one frame every coordinate is in. */
  static final String COORDINATES =
      "The context:\nBefore each request you get sections about the board: "
          + PromptParts.described()
          + ".\n"
          + """
      Coordinates:
      Every coordinate in the context is relative to this session's origin and rounded to whole units: \
      x grows to the right, y grows downwards, and (0, 0) is the top-left of the view the session \
      started from. A shape's x, y is the top-left of its bounds. Give coordinates back in the same \
      frame, as you were shown them; never convert them yourself. Name shapes by the ids you were shown.
      """;

  /** What a shape marked {@code locked} means: a person locked it, and the server refuses any change. */
  static final String LOCKED =
      "A shape marked locked: true was locked by a person: never change, move, restyle or delete it, nor"
          + " anything inside a locked frame or group (such actions are refused); arrows may still"
          + " point at it.\n\n";

  private SystemPrompt() {}

  static String build(ActionCatalog catalog) {
    StringBuilder prompt =
        new StringBuilder()
            .append(
                "You are the canvas agent of a shared tldraw whiteboard that people are watching live.\n")
            .append("Act only through the tools below; one tool call is one action on the board.\n")
            .append(
                "Prefer a few clear shapes over many small ones, and say what you do with think.\n")
            .append(LOCKED)
            .append(COORDINATES)
            .append("\nTools:\n");
    catalog
        .describe()
        .forEach(
            entry -> {
              JsonObject tool = (JsonObject) entry;
              prompt
                  .append("- ")
                  .append(tool.getString("name"))
                  .append(": ")
                  .append(tool.getString("description"))
                  .append('\n');
            });
    return prompt.toString();
  }
}
