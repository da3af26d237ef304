package dev.canvasagent.board.geometry;

/** A point or a displacement on the page (or in a shape's local space). */
public record Vec(double x, double y) {
  public static final Vec ZERO = new Vec(0, 0);

  public Vec plus(Vec other) {
    return new Vec(x + other.x, y + other.y);
  }

  public Vec minus(Vec other) {
    return new Vec(x - other.x, y - other.y);
  }

  public Vec times(double scaleX, double scaleY) {
    return new Vec(x * scaleX, y * scaleY);
  }

  /** Rotated about (0, 0) by {@code radians}, clockwise on screen as tldraw's y axis points down. */
  public Vec rotated(double radians) {
    if (radians == 0) {
      return this;
    }
    double cos = Math.cos(radians);
    double sin = Math.sin(radians);
    return new Vec(x * cos - y * sin, x * sin + y * cos);
  }

  public Vec rotatedAbout(Vec center, double radians) {
    return minus(center).rotated(radians).plus(center);
  }

  public boolean isFinite() {
    return Double.isFinite(x) && Double.isFinite(y);
  }
}
