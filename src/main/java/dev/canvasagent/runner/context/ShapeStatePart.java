package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
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

  /** The lines taken so far, each shape once, until one does not fit. */
  private static final class Lines {
    private final CoordinateFrame frame;
    private final int limitBytes;
    private final Set<String> seen = new HashSet<>();
    private final List<String> lines = new ArrayList<>();
    private int bytes;
    private boolean full;

    Lines(CoordinateFrame frame, int limitBytes) {
      this.frame = frame;
      this.limitBytes = limitBytes;
    }

    /** Takes the shape's line unless it was taken before; false once the limit is reached. */
    boolean offer(BoardView.Shape shape) {
      if (full || !seen.add(shape.recordId())) {
        return !full;
      }
      String line = ModelShapes.state(shape, frame).encode() + "\n";
      int size = PartOutput.utf8Length(line);
      if (bytes + size > limitBytes) {
        full = true;
        return false;
      }
      bytes += size;
      lines.add(line);
      return true;
    }
  }

  @Override
  public PartOutput render(PartScope scope, int limitBytes) {
    BoardView view = scope.view();
    Lines taken = new Lines(scope.frame(), limitBytes);
    scope.inputs().selection().stream()
        .map(view::shape)
        .filter(Objects::nonNull)
        .forEach(taken::offer);
    view.inView(scope.inputs().viewport()).forEach(taken::offer);
    // The rest is read lazily: a board far larger than the limit is read only as far as it fits.
    Iterator<BoardView.Shape> rest = view.paintOrderLazily();
    while (rest.hasNext() && taken.offer(rest.next())) {
      // each shape offered in turn
    }
    List<String> lines = taken.lines;
    int bytes = taken.bytes;
    // Every shape listed is a painted one, so the painted count is how many there were to list.
    boolean truncated = lines.size() < view.shapeCount();
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
