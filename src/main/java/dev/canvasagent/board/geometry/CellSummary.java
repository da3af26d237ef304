package dev.canvasagent.board.geometry;

/**
 * What a cell of a {@link CenterGrid} holds, in sum: how many shapes, the union of their bounds, and
 * the extent of their centres (which decides whether they all fall in one cell of another grid).
 */
record CellSummary(int count, Box bounds, Box centers) {
  static CellSummary of(Box bounds) {
    return new CellSummary(
        1, bounds, new Box(bounds.centerX(), bounds.centerY(), bounds.centerX(), bounds.centerY()));
  }

  CellSummary plus(CellSummary other) {
    return other == null
        ? this
        : new CellSummary(
            count + other.count, bounds.union(other.bounds), centers.union(other.centers));
  }

  /** Whether some centre may lie in the closed box {@code area}. */
  boolean centersMayTouch(Box area) {
    return centers.minX() <= area.maxX()
        && centers.maxX() >= area.minX()
        && centers.minY() <= area.maxY()
        && centers.maxY() >= area.minY();
  }
}
