package dev.canvasagent.runner.context;

/**
 * One part of the prompt's context ("eyes", as the tldraw starter kit's prompt part utils): it reads
 * what it needs from the run's {@link ContextInputs} and renders a section within its byte budget,
 * dropping its least useful items first when the budget is short.
 */
interface PromptPart {
  /** The part's name: its key under {@code context.budgets} and in the stats' list of cut parts. */
  String name();

  /** Lower comes first, in the text and when the total budget is shared out. */
  int priority();

  /**
   * Whether the part depends only on the memo key ({@code room, docVersion, selection, viewport,
   * transcript} and the session origin), so its output may be reused while the key is the same.
   */
  boolean memoizable();

  /**
   * Whether the part's bytes count against the total budget of the context text. The message and the
   * screenshot have only their own budgets: they are not context text.
   */
  default boolean sharesTotalBudget() {
    return true;
  }

  /** The section, in the model's coordinates (the scope's frame), at most {@code budgetBytes}. */
  PartOutput render(PartScope scope, int budgetBytes);
}
