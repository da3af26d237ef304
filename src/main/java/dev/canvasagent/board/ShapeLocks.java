package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The shapes of a board that a person's lock holds: a shape whose {@code isLocked} is true, and every
 * shape inside a locked frame or group, at any depth (tldraw's {@code isShapeOrAncestorLocked}). Agent
 * verbs leave held shapes as they are; a person's own edits are not judged by this. Each question walks
 * one shape's parents only (bounded, cycles stopped), so judging a diff costs the diff, not the board.
 */
public final class ShapeLocks {
  /** How many parents are followed before the walk gives up (a board nested absurdly deep). */
  static final int MAX_DEPTH = 100;

  private final Board board;

  public ShapeLocks(Board board) {
    this.board = board;
  }

  /** Whether the shape (a record id) is locked, or inside a locked frame or group. */
  public boolean holds(String shapeId) {
    return lockOn(shapeId).isPresent();
  }

  /**
   * The locked shape holding {@code shapeId}: the shape itself when it is locked, else its nearest
   * locked ancestor. Empty for a shape no lock holds, and for an id that is no shape on the board.
   */
  public Optional<String> lockOn(String shapeId) {
    Set<String> seen = new HashSet<>();
    String id = shapeId;
    for (int depth = 0; id != null && depth <= MAX_DEPTH && seen.add(id); depth++) {
      JsonObject shape = board.shape(id).orElse(null);
      if (shape == null) {
        return Optional.empty();
      }
      if (isLocked(shape)) {
        return Optional.of(id);
      }
      id = shape.getValue("parentId") instanceof String parent ? parent : null;
    }
    return Optional.empty();
  }

  /** Whether the record says {@code isLocked: true}. */
  public static boolean isLocked(JsonObject shape) {
    return shape.getValue("isLocked") instanceof Boolean locked && locked;
  }
}
