package dev.canvasagent.catalog.verbs;

import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonObject;

/**
 * The ranges every verb keeps numbers in, so that no action, however wild its params, puts a
 * record tldraw would refuse or a shape a million screens away.
 */
final class VerbRanges {
  static final double COORDINATE = 1_000_000;
  static final double MIN_SIZE = 1;
  static final double MAX_SIZE = 100_000;
  static final double MIN_SCALE = 0.01;
  static final double MAX_SCALE = 100;
  static final double MAX_GAP = 10_000;

  /** A stroke's extent: keeps every point delta well inside Float16's range (±65504). */
  static final double MAX_STROKE_EXTENT = 10_000;

  private VerbRanges() {}

  /** The value within [min, max]; NaN (from arithmetic on extreme values) is refused rather than written. */
  static double clamp(double value, double min, double max) {
    if (Double.isNaN(value)) {
      throw new ActionRejected("the numbers in this action are out of range");
    }
    return Math.max(min, Math.min(max, value));
  }

  static double coordinate(double value) {
    return clamp(value, -COORDINATE, COORDINATE);
  }

  static double size(double value) {
    return clamp(value, MIN_SIZE, MAX_SIZE);
  }

  static double scale(double value) {
    return clamp(value, MIN_SCALE, MAX_SCALE);
  }

  /** A number param, or null when absent; anything else (a string, NaN) is refused. */
  static Double optionalNumber(JsonObject params, String name) {
    Object value = params.getValue(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Number number) || Double.isNaN(number.doubleValue())) {
      throw new ActionRejected(name + " must be a number");
    }
    return number.doubleValue();
  }

  /** A number param that must be present and finite (an infinite angle or factor has no meaning). */
  static double finiteNumber(JsonObject params, String name) {
    double value = number(params, name);
    if (Double.isInfinite(value)) {
      throw new ActionRejected(name + " must be a finite number");
    }
    return value;
  }

  static double number(JsonObject params, String name) {
    Double value = optionalNumber(params, name);
    if (value == null) {
      throw new ActionRejected(name + " is required");
    }
    return value;
  }
}
