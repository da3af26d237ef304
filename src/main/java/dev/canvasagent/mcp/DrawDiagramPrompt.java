package dev.canvasagent.mcp;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.RoomId;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code draw_diagram}: asks the model to draw a diagram of a subject on a room's board with the board
 * tools, looking at the room first ({@code canvas_view}) so it draws beside what people already made
 * rather than over it.
 */
final class DrawDiagramPrompt implements McpPrompt {
  static final String NAME = "draw_diagram";
  static final int MAX_SUBJECT_CHARS = 2_000;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public JsonObject descriptor() {
    return new JsonObject()
        .put("name", NAME)
        .put("title", "Draw a diagram")
        .put("description", "Draw a diagram of a subject on a room's board with the board tools.")
        .put(
            "arguments",
            new JsonArray()
                .add(PromptArguments.describe("subject", "What the diagram shows.", true))
                .add(
                    PromptArguments.describe(
                        "roomId",
                        "The room to draw in; without it, the room the session was opened for (/mcp?room=).",
                        false)));
  }

  @Override
  public Future<JsonObject> get(JsonObject arguments) {
    try {
      return Future.succeededFuture(message(arguments));
    } catch (Failure refused) {
      return Future.failedFuture(refused);
    }
  }

  private static JsonObject message(JsonObject arguments) {
    String subject = PromptArguments.required(arguments, "subject", MAX_SUBJECT_CHARS, null);
    String roomId = PromptArguments.optional(arguments, "roomId", 64, RoomId.PATTERN);
    String room =
        roomId == null
            ? "the room this session was opened for (give no roomId to the tools)"
            : "room " + roomId + " (pass roomId \"" + roomId + "\" to every tool)";
    String text =
        "Draw a diagram of the following subject on the shared board of "
            + room
            + ". People are watching the board live.\n\n"
            + "Subject: "
            + subject
            + "\n\n"
            + "1. Call canvas_view first to see what is already on the board and where there is free space.\n"
            + "2. Plan the diagram: its parts, how they connect, and a layout that does not cover existing shapes.\n"
            + "3. Draw it with the board tools (create_shape for boxes and labels, arrows to connect them, "
            + "batch_operations for many shapes at once, align to tidy up). Each call answers what it created "
            + "and what the server adjusted or dropped: read it before the next call.\n"
            + "4. Call canvas_view again to check the result, fix what overlaps or is unreadable, then say in one "
            + "or two sentences what you drew.";
    return PromptArguments.userMessage("Draw a diagram of a subject on the board", text);
  }
}
