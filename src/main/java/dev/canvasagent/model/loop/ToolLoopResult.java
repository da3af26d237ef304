package dev.canvasagent.model.loop;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.Turn;
import java.util.List;

/**
 * How a tool loop ended.
 *
 * @param stop why it ended
 * @param finalText the last answer's text (the model's closing words when {@code stop} is {@code
 *     DONE}; may be empty otherwise)
 * @param steps how many times the model was asked (a step whose call failed or was interrupted counts)
 * @param executed every tool call that ran, with its result, in order
 * @param notExecuted calls the model asked for that did not run: the last answer's calls at the
 *     step cap, or those after an interrupt
 * @param usage token counts summed over the steps (each step's last reported usage)
 * @param error the provider's error when {@code stop} is {@code ERROR}, else null
 * @param turns the conversation the loop added after the first request: each answer and the
 *     results of its calls that ran
 */
public record ToolLoopResult(
    Stop stop,
    String finalText,
    int steps,
    List<Executed> executed,
    List<Turn.ToolCall> notExecuted,
    ModelEvent.Usage usage,
    ModelEvent.Error error,
    List<Turn> turns) {

  public ToolLoopResult {
    executed = List.copyOf(executed);
    notExecuted = List.copyOf(notExecuted);
    turns = List.copyOf(turns);
  }

  public enum Stop {
    /** An answer had no tool calls. */
    DONE,
    /** The step cap was reached with tool calls still asked for. */
    STEP_CAP,
    /** Someone interrupted the loop. */
    INTERRUPTED,
    /** The provider failed (or could not be called). */
    ERROR;

    /** {@code done}, {@code step_cap}, {@code interrupted}, {@code error}. */
    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** A call that ran and what it returned. */
  public record Executed(int step, Turn.ToolCall call, Turn.ToolResult result) {}
}
