package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/** The selected shapes in full: their simplified records, with styles, rotation, parent and arrow ends. */
final class SelectedShapesPart implements PromptPart<Void> {
  @Override
  public String name() {
    return "selectedShapes";
  }

  @Override
  public int priority() {
    return 40;
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
    return "the selected shapes in full";
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    BoardView view = scope.view();
    CoordinateFrame frame = scope.frame();
    List<JsonObject> shapes =
        scope.inputs().selection().stream()
            .map(view::shape)
            .filter(Objects::nonNull)
            .map(shape -> ModelShapes.simplified(shape, view, frame))
            .toList();
    if (shapes.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<JsonObject> list =
        BudgetedList.of(
            "Selected shapes in full",
            shapes,
            JsonObject::encode,
            budgetBytes,
            BudgetedList.Keep.FIRST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(
        this,
        ModelContext.SELECTED_SHAPES,
        new JsonArray(List.copyOf(list.kept())),
        list.text(),
        list.truncated());
  }
}
