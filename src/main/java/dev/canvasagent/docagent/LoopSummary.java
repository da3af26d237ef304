package dev.canvasagent.docagent;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.loop.ToolLoopResult;
import io.vertx.core.json.JsonObject;

/** How a document-agent loop's end is told: in the room's chat, and the model's failure in its outcome. */
final class LoopSummary {
  private LoopSummary() {}

  /**
   * The model's failure as the answer, the room's status and chat tell it: a provider's error arrives in
   * the server's words, with the provider's status and the correlation id of the operator's log line.
   */
  static JsonObject error(ModelEvent.Error error) {
    JsonObject told =
        new JsonObject().put("type", error.errorType()).put("message", error.message());
    if (error.providerStatus() > 0) {
      told.put("providerStatus", error.providerStatus());
    }
    if (error.correlationId() != null) {
      told.put("correlationId", error.correlationId());
    }
    return told;
  }

  /** The line the room's {@code agent:chat} tells of how the loop ended. */
  static String chat(ToolLoopResult result, String interruptedBy) {
    return switch (result.stop()) {
      case DONE -> result.finalText().isBlank() ? "Done." : result.finalText();
      case STEP_CAP ->
          "Stopped after "
              + result.steps()
              + " steps (the step cap); "
              + result.executed().size()
              + " tool calls ran.";
      case INTERRUPTED ->
          "Stopped: "
              + switch (interruptedBy == null ? "" : interruptedBy) {
                case "timeout" -> "the time limit was reached";
                case DocumentAgentVerticle.SHUTDOWN -> "the server is shutting down";
                default -> "the lease was taken back";
              }
              + "; "
              + result.executed().size()
              + " tool calls ran.";
      case ERROR ->
          "The model failed: "
              + (result.error() == null ? "unknown error" : result.error().message());
    };
  }
}
