package dev.canvasagent.catalog.batch;

import dev.canvasagent.board.geometry.Vec;
import java.util.ArrayList;
import java.util.List;

/** One row, left to right, top-aligned, {@code gap} apart (rows, freeform, or no directive). */
public final class RowLayout {
  private RowLayout() {}

  public static List<Vec> arrange(List<Size> items, double gap) {
    List<Vec> positions = new ArrayList<>(items.size());
    double x = 0;
    for (Size item : items) {
      positions.add(new Vec(x, 0));
      x += item.w() + gap;
    }
    return positions;
  }
}
