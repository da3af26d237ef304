package dev.canvasagent.catalog.batch;

import dev.canvasagent.board.geometry.Vec;
import java.util.ArrayList;
import java.util.List;

/**
 * A grid of equal cells, each as big as the largest item, filled row by row (the grid directive).
 */
public final class GridLayout {
  private GridLayout() {}

  /**
   * The grid directive's columns: a square grid, the ceiling of the square root of the count
   * across.
   */
  public static int squareColumns(int count) {
    return Math.max(1, (int) Math.ceil(Math.sqrt(count)));
  }

  public static List<Vec> arrange(List<Size> items, int columns, double gap) {
    double cellW = 0;
    double cellH = 0;
    for (Size item : items) {
      cellW = Math.max(cellW, item.w());
      cellH = Math.max(cellH, item.h());
    }
    List<Vec> positions = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      positions.add(new Vec((i % columns) * (cellW + gap), (i / columns) * (cellH + gap)));
    }
    return positions;
  }
}
