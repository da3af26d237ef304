package dev.canvasagent.board.geometry;

import java.util.List;

/**
 * A grid laid over the page to cluster shapes: cells {@code cellWidth} by {@code cellHeight}, the
 * cell at row 0, column 0 having its top-left corner at {@code originX, originY}.
 */
public record ClusterGrid(double originX, double originY, double cellWidth, double cellHeight) {
  public ClusterGrid {
    if (!(cellWidth > 0 && cellHeight > 0)) {
      throw new IllegalArgumentException(
          "cells must have a positive size: " + cellWidth + "x" + cellHeight);
    }
  }

  /** The {@code [row, column]} of the cell holding the point. */
  List<Long> cellOf(double x, double y) {
    return List.of(
        (long) Math.floor((y - originY) / cellHeight),
        (long) Math.floor((x - originX) / cellWidth));
  }
}
