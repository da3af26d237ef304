package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;

/**
 * What a part renders from: the run's inputs, the frame that converts to the model's coordinates (and
 * remembers the rounding), and the board measured once, on first use, for all parts of a build.
 */
final class PartScope {
  private final ContextInputs inputs;
  private final CoordinateFrame frame;
  private BoardView view;

  PartScope(ContextInputs inputs, CoordinateFrame frame) {
    this.inputs = inputs;
    this.frame = frame;
  }

  ContextInputs inputs() {
    return inputs;
  }

  /** What {@code part}'s {@link PromptPart#gather} fetched, or null when it fetched nothing or failed. */
  @SuppressWarnings("unchecked")
  <T> T gathered(PromptPart<T> part) {
    return (T) inputs.gathered().get(part.name());
  }

  CoordinateFrame frame() {
    return frame;
  }

  BoardView view() {
    if (view == null) {
      view = new BoardView(inputs.board());
    }
    return view;
  }
}
