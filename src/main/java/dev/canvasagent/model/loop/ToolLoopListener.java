package dev.canvasagent.model.loop;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.Turn;

/**
 * What a tool loop reports as it goes, on the loop's Vert.x context: each step, each model event,
 * each tool call and its result. A lease holder renews on these (server-observed agent activity).
 * A listener must not throw or block.
 */
public interface ToolLoopListener {
  ToolLoopListener NONE = new ToolLoopListener() {};

  /** Step {@code step} (1-based) asks the model. */
  default void stepStarted(int step) {}

  /** An event of step {@code step}'s streamed answer. */
  default void modelEvent(int step, ModelEvent event) {}

  /** Step {@code step}'s answer is complete. */
  default void stepAnswered(int step, Turn.Assistant answer) {}

  /** A tool call is about to run. */
  default void toolCalled(int step, Turn.ToolCall call) {}

  /** A tool call returned (a result or an error). */
  default void toolReturned(int step, Turn.ToolResult result) {}
}
