package dev.canvasagent.catalog.batch;

import static dev.canvasagent.catalog.batch.LayoutMetrics.FRAME_HEADER;
import static dev.canvasagent.catalog.batch.LayoutMetrics.NOTE_GAP;
import static dev.canvasagent.catalog.batch.LayoutMetrics.NOTE_PADDING;

import dev.canvasagent.board.geometry.Vec;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a frame's children sit, in the frame's local coordinates, and how big the frame must then
 * be: inside the padding and under the header, stacked one under the other or in a grid.
 */
public final class FrameContent {
  private FrameContent() {}

  /** One under the other, {@code NOTE_GAP} apart, the first under the header. */
  public static List<Vec> stack(List<Size> children) {
    List<Vec> positions = new ArrayList<>(children.size());
    double y = FRAME_HEADER + NOTE_PADDING;
    for (Size child : children) {
      positions.add(new Vec(NOTE_PADDING, y));
      y += child.h() + NOTE_GAP;
    }
    return positions;
  }

  /** In rows of {@code columns}, each cell as big as the biggest child (a SWOT quadrant's notes). */
  public static List<Vec> grid(List<Size> children, int columns) {
    List<Vec> cells = GridLayout.arrange(children, columns, NOTE_GAP);
    return cells.stream()
        .map(cell -> cell.plus(new Vec(NOTE_PADDING, FRAME_HEADER + NOTE_PADDING)))
        .toList();
  }

  /**
   * The size that holds every child with the padding on the right and below; a frame without
   * children keeps the size it has.
   */
  public static Size fit(Size frame, List<Size> children, List<Vec> positions) {
    if (children.isEmpty()) {
      return frame;
    }
    double right = 0;
    double bottom = 0;
    for (int i = 0; i < children.size(); i++) {
      right = Math.max(right, positions.get(i).x() + children.get(i).w());
      bottom = Math.max(bottom, positions.get(i).y() + children.get(i).h());
    }
    return new Size(right + NOTE_PADDING, bottom + NOTE_PADDING);
  }
}
