package dev.canvasagent.board.geometry;

import io.vertx.core.json.JsonObject;

/**
 * Where one space sits in another: the position of its origin and its rotation in radians. A shape
 * record's x, y and rotation are its transform in its parent's space; composing them from the page
 * down gives its page transform, as tldraw does.
 */
public record Transform(double x, double y, double rotation) {
  public static final Transform IDENTITY = new Transform(0, 0, 0);

  /** A shape's transform in its parent's space; a value that is missing or not a finite number counts as 0. */
  public static Transform of(JsonObject shape) {
    return new Transform(
        RecordNumbers.finite(shape, "x", 0),
        RecordNumbers.finite(shape, "y", 0),
        RecordNumbers.finite(shape, "rotation", 0));
  }

  public Vec origin() {
    return new Vec(x, y);
  }

  /** A point of this space in the outer space. */
  public Vec apply(Vec local) {
    return local.rotated(rotation).plus(origin());
  }

  /** A point of the outer space in this space. */
  public Vec applyInverse(Vec outer) {
    return outer.minus(origin()).rotated(-rotation);
  }

  /** A direction (no translation) of the outer space in this space. */
  public Vec applyInverseToDelta(Vec outerDelta) {
    return outerDelta.rotated(-rotation);
  }

  /** The transform of {@code child}, given in this space, in the outer space. */
  public Transform then(Transform child) {
    Vec position = apply(child.origin());
    return new Transform(position.x(), position.y(), rotation + child.rotation);
  }

  /** This transform (in the outer space) seen from {@code space} (also in the outer space). */
  public Transform relativeTo(Transform space) {
    Vec position = space.applyInverse(origin());
    return new Transform(position.x(), position.y(), rotation - space.rotation);
  }
}
