package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What a person pinned for the agent in the session (its context items): shapes, in full as a
 * selected shape is shown; areas and points, in the model's coordinates. A pinned shape that is no
 * longer on the board is left out. Not memoized: the items change without the board changing. When
 * the budget is short the last pinned go first.
 */
final class ContextItemsPart implements PromptPart<List<JsonObject>> {
  @Override
  public String name() {
    return "contextItems";
  }

  @Override
  public int priority() {
    return 45;
  }

  @Override
  public boolean memoizable() {
    return false;
  }

  /** The session's context items, read fresh every run (a person may change them between runs), page coordinates. */
  @Override
  public Future<List<JsonObject>> gather(ContextSources sources, RunRequest request) {
    return sources
        .store()
        .sessions()
        .find(request.sessionId())
        .map(
            session ->
                session
                    .map(
                        found ->
                            found.contextItems().stream()
                                .filter(JsonObject.class::isInstance)
                                .map(JsonObject.class::cast)
                                .map(JsonObject::copy)
                                .toList())
                    .orElse(List.of()));
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<JsonObject> pinned = scope.gathered(this);
    List<JsonObject> items = new ArrayList<>();
    for (JsonObject item : pinned == null ? List.<JsonObject>of() : pinned) {
      JsonObject rendered = render(item, scope);
      if (rendered != null) {
        items.add(rendered);
      }
    }
    if (items.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<JsonObject> list =
        BudgetedList.of(
            "Context items the person pinned for you",
            items,
            JsonObject::encode,
            budgetBytes,
            BudgetedList.Keep.FIRST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(
        this,
        ModelContext.CONTEXT_ITEMS,
        new JsonArray(List.copyOf(list.kept())),
        list.text(),
        list.truncated());
  }

  private static JsonObject render(JsonObject item, PartScope scope) {
    CoordinateFrame frame = scope.frame();
    switch (String.valueOf(item.getValue("type"))) {
      case "shape" -> {
        String recordId =
            item.getValue("shapeId") instanceof String reference
                ? ShapeIds.recordId(reference)
                : null;
        BoardView.Shape shape = recordId == null ? null : scope.view().shape(recordId);
        return shape == null
            ? null
            : new JsonObject()
                .put("type", "shape")
                .put("shape", ModelShapes.simplified(shape, scope.view(), frame));
      }
      case "area" -> {
        JsonObject bounds = item.getJsonObject("bounds");
        return new JsonObject()
            .put("type", "area")
            .put(
                "bounds",
                new JsonObject()
                    .put("x", frame.toModel(null, "x", bounds.getDouble("x")))
                    .put("y", frame.toModel(null, "y", bounds.getDouble("y")))
                    .put("w", Math.round(bounds.getDouble("w")))
                    .put("h", Math.round(bounds.getDouble("h"))));
      }
      case "point" -> {
        JsonObject point = item.getJsonObject("point");
        return new JsonObject()
            .put("type", "point")
            .put("x", frame.toModel(null, "x", point.getDouble("x")))
            .put("y", frame.toModel(null, "y", point.getDouble("y")));
      }
      default -> {
        return null;
      }
    }
  }
}
