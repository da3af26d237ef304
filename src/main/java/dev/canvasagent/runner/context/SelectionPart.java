package dev.canvasagent.runner.context;

import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The ids of the shapes the person has selected, as the model names them ("them", "these"). */
final class SelectionPart implements PromptPart<Void> {
  @Override
  public String name() {
    return "selection";
  }

  @Override
  public int priority() {
    return 30;
  }

  @Override
  public boolean inRoomView() {
    return true;
  }

  @Override
  public boolean memoizable() {
    return true;
  }

  @Override
  public String describedAs() {
    return "the ids of the selected shapes";
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    ContextInputs inputs = scope.inputs();
    List<String> ids = inputs.selection().stream().map(ShapeIds::modelId).toList();
    if (ids.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<String> list =
        BudgetedList.of(
            "Selected shape ids",
            ids,
            id -> new JsonArray().add(id).encode(),
            budgetBytes,
            BudgetedList.Keep.FIRST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(
            this, ModelContext.SELECTION, new JsonArray(list.kept()), list.text(), list.truncated())
        .withStats(new JsonObject().put("selected", ids.size()));
  }
}
