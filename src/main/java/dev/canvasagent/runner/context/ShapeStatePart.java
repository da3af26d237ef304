package dev.canvasagent.runner.context;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The shapes' tldraw records as they are, positions offset and rounded, one per line: the selected
 * shapes first, then those in view, then the rest, each group back to front, until
 * {@code CANVAS_AGENT_SHAPE_STATE_LIMIT} bytes of records. Text only;
 * {@code shapeStateStats {count, bytes, truncated}} says how much of it the model got.
 */
final class ShapeStatePart implements PromptPart<Void> {
  static final String HEADING = "## Shape state (tldraw records)\n";

  @Override
  public String name() {
    return "shapeState";
  }

  @Override
  public int priority() {
    return 100;
  }

  @Override
  public boolean memoizable() {
    return true;
  }

  @Override
  public String describedAs() {
    return "the shapes' tldraw records (shape state)";
  }

  @Override
  public PartOutput render(PartScope scope, int limitBytes) {
    BoardView view = scope.view();
    Set<BoardView.Shape> ordered = new LinkedHashSet<>();
    scope.inputs().selection().stream()
        .map(view::shape)
        .filter(Objects::nonNull)
        .forEach(ordered::add);
    ordered.addAll(view.inView(scope.inputs().viewport()));
    ordered.addAll(view.paintOrder());
    List<String> lines = new ArrayList<>();
    int bytes = 0;
    for (BoardView.Shape shape : ordered) {
      String line = ModelShapes.state(shape, scope.frame()).encode() + "\n";
      int size = PartOutput.utf8Length(line);
      if (bytes + size > limitBytes) {
        break;
      }
      bytes += size;
      lines.add(line);
    }
    boolean truncated = lines.size() < ordered.size();
    JsonObject stats =
        new JsonObject()
            .put("shapeStateStats", new ShapeStateStats(lines.size(), bytes, truncated).toJson());
    if (lines.isEmpty()) {
      PartOutput empty = PartOutput.empty(this).withStats(stats);
      return truncated ? empty.withTruncation() : empty;
    }
    return PartOutput.section(this, null, null, HEADING + String.join("", lines), truncated)
        .withStats(stats);
  }
}
