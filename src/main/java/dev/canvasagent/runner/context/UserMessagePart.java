package dev.canvasagent.runner.context;

import dev.canvasagent.model.ModelContext;

/**
 * What the person asked. It goes to the model as the request's user message, after the context, so
 * it has no section of its own; its budget only guards against a message larger than configured.
 */
final class UserMessagePart implements PromptPart<Void> {
  @Override
  public String name() {
    return "message";
  }

  @Override
  public int priority() {
    return 0;
  }

  @Override
  public boolean memoizable() {
    return false;
  }

  @Override
  public boolean sharesTotalBudget() {
    return false;
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    ContextInputs inputs = scope.inputs();
    String message = inputs.message();
    boolean truncated = PartOutput.utf8Length(message) > budgetBytes;
    if (truncated) {
      message = Utf8.prefix(message, budgetBytes);
    }
    return new PartOutput(
        name(),
        priority(),
        ModelContext.MESSAGE,
        message,
        "",
        PartOutput.utf8Length(message),
        truncated,
        null,
        null);
  }
}
