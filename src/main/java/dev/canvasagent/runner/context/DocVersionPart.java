package dev.canvasagent.runner.context;

import dev.canvasagent.model.ModelContext;

/** The board revision the context was read at. */
final class DocVersionPart implements PromptPart<Void> {
  @Override
  public String name() {
    return "docVersion";
  }

  @Override
  public int priority() {
    return 10;
  }

  @Override
  public boolean memoizable() {
    return true;
  }

  @Override
  public String describedAs() {
    return "its revision (docVersion)";
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    ContextInputs inputs = scope.inputs();
    String version = String.valueOf(inputs.board().revision());
    String text = "## Board revision (docVersion)\n" + version + "\n";
    if (PartOutput.utf8Length(text) > budgetBytes) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(this, ModelContext.DOC_VERSION, version, text, false);
  }
}
