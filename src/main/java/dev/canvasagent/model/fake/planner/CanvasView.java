package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the planner knows of the board: the shapes in view (paint order, the last on top), the
 * selection and the viewport, all from the request's structured context. An empty context is an
 * empty view.
 */
final class CanvasView {
  private final List<SeenShape> shapes;
  private final List<SeenShape> selection;
  private final Optional<Area> viewport;

  /** A rectangle in the model's coordinates. */
  record Area(double x, double y, double w, double h) {
    double maxX() {
      return x + w;
    }

    double maxY() {
      return y + h;
    }
  }

  private CanvasView(List<SeenShape> shapes, List<SeenShape> selection, Optional<Area> viewport) {
    this.shapes = shapes;
    this.selection = selection;
    this.viewport = viewport;
  }

  static CanvasView of(JsonObject context) {
    List<SeenShape> shapes = new ArrayList<>();
    for (Object item : array(context, ModelContext.SHAPES)) {
      if (item instanceof JsonObject shape && shape.getValue("id") instanceof String) {
        shapes.add(SeenShape.of(shape));
      }
    }
    List<SeenShape> selectedInFull = new ArrayList<>();
    for (Object item : array(context, ModelContext.SELECTED_SHAPES)) {
      if (item instanceof JsonObject shape && shape.getValue("id") instanceof String) {
        selectedInFull.add(SeenShape.of(shape));
      }
    }
    List<SeenShape> selection = new ArrayList<>();
    for (Object item : array(context, ModelContext.SELECTION)) {
      if (item instanceof String id) {
        selection.add(
            find(shapes, id)
                .or(() -> find(selectedInFull, id))
                .orElseGet(() -> SeenShape.named(id)));
      }
    }
    return new CanvasView(
        List.copyOf(shapes), List.copyOf(selection), area(context.getValue(ModelContext.VIEWPORT)));
  }

  List<SeenShape> shapes() {
    return shapes;
  }

  Optional<Area> viewport() {
    return viewport;
  }

  /** "it": the selected shape when exactly one is selected, else the topmost shape in view. */
  Optional<SeenShape> it() {
    if (selection.size() == 1) {
      return Optional.of(selection.get(0));
    }
    return shapes.isEmpty() ? Optional.empty() : Optional.of(shapes.get(shapes.size() - 1));
  }

  /** "them": the selection, else every shape in view. */
  List<SeenShape> them() {
    return selection.isEmpty() ? shapes : selection;
  }

  private static Optional<SeenShape> find(List<SeenShape> shapes, String id) {
    return shapes.stream().filter(shape -> shape.id().equals(id)).findFirst();
  }

  private static JsonArray array(JsonObject context, String key) {
    return context.getValue(key) instanceof JsonArray array ? array : new JsonArray();
  }

  private static Optional<Area> area(Object value) {
    if (value instanceof JsonObject json
        && json.getValue("x") instanceof Number x
        && json.getValue("y") instanceof Number y
        && json.getValue("w") instanceof Number w
        && json.getValue("h") instanceof Number h
        && Double.isFinite(x.doubleValue())
        && Double.isFinite(y.doubleValue())
        && w.doubleValue() > 0
        && h.doubleValue() > 0
        && Double.isFinite(w.doubleValue())
        && Double.isFinite(h.doubleValue())) {
      return Optional.of(
          new Area(x.doubleValue(), y.doubleValue(), w.doubleValue(), h.doubleValue()));
    }
    return Optional.empty();
  }
}
