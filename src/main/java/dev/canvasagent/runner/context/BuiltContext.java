package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A run's context, ready for the model: the readable sections, the same facts as structured JSON, the
 * screenshot when there is one, the message, and the frame the model's coordinates are in (with the
 * rounding it remembered), which the sanitizer must get with every action of the run.
 */
public record BuiltContext(
    String contextText,
    JsonObject context,
    ModelRequest.Image screenshot,
    String userMessage,
    CoordinateFrame frame,
    ContextStats stats) {

  public ModelRequest request(
      String model, String systemPrompt, JsonArray tools, ModelRequest.Sampling sampling) {
    return new ModelRequest(
        model, systemPrompt, contextText, userMessage, screenshot, tools, sampling, context.copy());
  }
}
