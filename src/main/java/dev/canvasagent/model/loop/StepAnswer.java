package dev.canvasagent.model.loop;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.Turn;
import java.util.ArrayList;
import java.util.List;

/** Accumulates one streamed answer into an assistant turn, its last usage and its terminal event. */
final class StepAnswer {
  private final StringBuilder text = new StringBuilder();
  private final List<Turn.ToolCall> calls = new ArrayList<>();
  private ModelEvent.Usage usage;
  private ModelEvent terminal;

  /** Takes one event; true when it was the terminal one. */
  boolean accept(ModelEvent event) {
    if (terminal != null) {
      return false;
    }
    if (event instanceof ModelEvent.TextDelta delta) {
      text.append(delta.text());
    } else if (event instanceof ModelEvent.ToolCallEnd end) {
      calls.add(new Turn.ToolCall(end.callId(), end.name(), end.arguments(), end.signature()));
    } else if (event instanceof ModelEvent.Usage reported) {
      usage = reported;
    } else if (event instanceof ModelEvent.Stop || event instanceof ModelEvent.Error) {
      terminal = event;
      return true;
    }
    return false;
  }

  Turn.Assistant turn() {
    return new Turn.Assistant(text.toString(), calls);
  }

  ModelEvent.Usage usage() {
    return usage;
  }

  /** The provider's error, or null when the answer stopped normally. */
  ModelEvent.Error error() {
    return terminal instanceof ModelEvent.Error error ? error : null;
  }
}
