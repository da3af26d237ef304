package dev.canvasagent.catalog.verbs;

/** The bounds every verb keeps numbers within, so no model output can make a record tldraw refuses. */
final class Limits {
  static final double COORDINATE = 1_000_000;
  static final double MIN_SIZE = 1;
  static final double MAX_SIZE = 100_000;
  /** A stroke's extent: keeps every point delta well inside Float16's range (±65504). */
  static final double MAX_STROKE_EXTENT = 10_000;
  static final int MAX_TEXT_CHARS = 10_000;

  private Limits() {}

  static double coordinate(double value) {
    return clamp(value, -COORDINATE, COORDINATE);
  }

  static double size(double value) {
    return clamp(value, MIN_SIZE, MAX_SIZE);
  }

  static double clamp(double value, double min, double max) {
    if (Double.isNaN(value)) {
      return min;
    }
    return Math.max(min, Math.min(max, value));
  }
}
