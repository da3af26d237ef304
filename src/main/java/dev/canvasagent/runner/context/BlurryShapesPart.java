package dev.canvasagent.runner.context;

import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The shapes fully inside the viewport, blurred to {@code {id, type, x, y, w, h, text}}, back to front
 * so the last is the topmost. At most {@link #MAX_SHAPES}; when there are more, or the budget is
 * short, the frontmost are the ones kept. Without a viewport every shape counts as in view.
 */
final class BlurryShapesPart implements PromptPart<Void> {
  static final int MAX_SHAPES = 300;

  @Override
  public String name() {
    return "blurryShapes";
  }

  @Override
  public int priority() {
    return 50;
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
    return "the shapes fully inside the viewport as {id, type, x, y, w, h, text} from back to front (the last one is on top), locked: true on those a person locked";
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<BoardView.Shape> inView = scope.view().inView(scope.inputs().viewport());
    List<BoardView.Shape> capped =
        inView.subList(Math.max(0, inView.size() - MAX_SHAPES), inView.size());
    List<JsonObject> shapes =
        capped.stream()
            .map(shape -> ModelShapes.blurry(shape, scope.view(), scope.frame()))
            .toList();
    JsonObject stats =
        new JsonObject().put("shapes", scope.view().shapeCount()).put("inView", inView.size());
    if (shapes.isEmpty()) {
      return PartOutput.empty(this).withStats(stats.put("sent", 0));
    }
    BudgetedList<JsonObject> list =
        BudgetedList.of(
            "Shapes in view {id, type, x, y, w, h, text}, back to front (the last is on top)",
            shapes,
            JsonObject::encode,
            budgetBytes,
            BudgetedList.Keep.LAST);
    stats.put("sent", list.kept().size());
    boolean truncated = list.truncated() || capped.size() < inView.size();
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation().withStats(stats);
    }
    return PartOutput.section(
            this,
            ModelContext.SHAPES,
            new JsonArray(List.copyOf(list.kept())),
            list.text(),
            truncated)
        .withStats(stats);
  }
}
