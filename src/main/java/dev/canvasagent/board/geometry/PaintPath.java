package dev.canvasagent.board.geometry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Where a shape is painted, as a sortable key: its page id, then the index and id of each shape
 * from its topmost ancestor down to itself. Sorting by it gives tldraw's paint order (back to front:
 * pages by id, siblings by index then id, a shape's children right after it), so a handful of
 * shapes can be put in paint order without walking the whole board.
 */
public record PaintPath(List<String> steps) {
  public static final Comparator<PaintPath> ORDER =
      (left, right) -> {
        List<String> a = left.steps();
        List<String> b = right.steps();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
          int step = a.get(i).compareTo(b.get(i));
          if (step != 0) {
            return step;
          }
        }
        return Integer.compare(a.size(), b.size());
      };

  public PaintPath {
    steps = List.copyOf(steps);
  }

  /**
   * The path of a shape given its page and its ancestors' records and its own, outermost first.
   *
   * @param chain the shape's ancestors from the page down, then the shape
   */
  static PaintPath of(String pageId, List<io.vertx.core.json.JsonObject> chain) {
    List<String> steps = new ArrayList<>(1 + 2 * chain.size());
    steps.add(pageId);
    for (io.vertx.core.json.JsonObject shape : chain) {
      steps.add(ShapeTree.index(shape));
      steps.add(shape.getString("id"));
    }
    return new PaintPath(Collections.unmodifiableList(steps));
  }
}
