package dev.canvasagent.board.geometry;

import java.util.Optional;

/** An axis-aligned box; min ≤ max on both axes (a point or a line is a box of zero width or height). */
public record Box(double minX, double minY, double maxX, double maxY) {
  public Box {
    if (!(minX <= maxX && minY <= maxY)) {
      throw new IllegalArgumentException(
          "not a box: " + minX + "," + minY + " " + maxX + "," + maxY);
    }
  }

  public static Box of(double x, double y, double width, double height) {
    return new Box(x, y, x + width, y + height);
  }

  public double width() {
    return maxX - minX;
  }

  public double height() {
    return maxY - minY;
  }

  public double centerX() {
    return (minX + maxX) / 2;
  }

  public double centerY() {
    return (minY + maxY) / 2;
  }

  public Vec topLeft() {
    return new Vec(minX, minY);
  }

  public Vec center() {
    return new Vec(centerX(), centerY());
  }

  /** Whether this box lies inside {@code area}, edges included. */
  public boolean isWithin(Box area) {
    return minX >= area.minX && minY >= area.minY && maxX <= area.maxX && maxY <= area.maxY;
  }

  public Box union(Box other) {
    return new Box(
        Math.min(minX, other.minX), Math.min(minY, other.minY),
        Math.max(maxX, other.maxX), Math.max(maxY, other.maxY));
  }

  /** Grows a box point by point; the bounds of everything added so far, if anything was. */
  public static final class Extent {
    private double minX = Double.POSITIVE_INFINITY;
    private double minY = Double.POSITIVE_INFINITY;
    private double maxX = Double.NEGATIVE_INFINITY;
    private double maxY = Double.NEGATIVE_INFINITY;

    /** Adds a point; non-finite points are left out so one bad value cannot poison the bounds. */
    public void add(Vec point) {
      if (!point.isFinite()) {
        return;
      }
      minX = Math.min(minX, point.x());
      minY = Math.min(minY, point.y());
      maxX = Math.max(maxX, point.x());
      maxY = Math.max(maxY, point.y());
    }

    public boolean isEmpty() {
      return minX > maxX;
    }

    public Optional<Box> box() {
      return isEmpty() ? Optional.empty() : Optional.of(new Box(minX, minY, maxX, maxY));
    }
  }
}
