package dev.canvasagent.runner.context;

import dev.canvasagent.bus.RunRequest;
import io.vertx.core.Future;

/**
 * One part of the prompt's context ("eyes", as the tldraw starter kit's prompt part utils): it fetches
 * what it needs beyond the run's common {@link ContextInputs} ({@link #gather}), then renders a section
 * within its byte budget, dropping its least useful items first when the budget is short. A part is
 * registered in {@link PromptParts#STANDARD}; that is all the builder, the gatherer and the system
 * prompt need to know of it.
 *
 * @param <T> what {@link #gather} fetches for the part; {@code Void} for a part that reads only the
 *     common inputs and the board
 */
interface PromptPart<T> {
  /** The part's name: its key under {@code context.budgets} and in the stats' list of cut parts. */
  String name();

  /** Lower comes first, in the text and when the total budget is shared out. */
  int priority();

  /**
   * Whether the part depends only on the memo key ({@code room, docVersion, selection, viewport}, the
   * session origin, and what the memoizable parts gathered), so its output may be reused while the key
   * is the same.
   */
  boolean memoizable();

  /**
   * Whether the part's bytes count against the total budget of the context text. The message and the
   * screenshot have only their own budgets: they are not context text.
   */
  default boolean sharesTotalBudget() {
    return true;
  }

  /**
   * How the system prompt's list of context sections names this part ("the chat so far"), or null to
   * leave it out of the list.
   */
  default String describedAs() {
    return null;
  }

  /**
   * Whether the part shows the room itself (its board, view, selection or screenshot), so that {@code
   * runner.view} gives it, as the prompt does, to a model that asks to see the room.
   */
  default boolean inRoomView() {
    return false;
  }

  /**
   * What the part needs beyond the common inputs, fetched before any part renders and concurrently
   * with the other parts' (read it back with {@link PartScope#gathered}). A failed future is logged
   * ({@code context.part_unavailable}) and leaves the part's input null; it does not fail the run.
   */
  default Future<T> gather(ContextSources sources, RunRequest request) {
    return Future.succeededFuture();
  }

  /** The section, in the model's coordinates (the scope's frame), at most {@code budgetBytes}. */
  PartOutput render(PartScope scope, int budgetBytes);
}
