package dev.canvasagent.sanitizer;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeLocks;
import dev.canvasagent.catalog.LockedRefusal;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One check for every board verb, on the diff it made: an action that would change or remove a shape
 * a lock holds ({@link ShapeLocks}), or put a shape into a locked frame or group, is refused with
 * {@link LockedRefusal}'s reason, whole. Bindings are not shapes: an arrow may still bind to a locked
 * shape, as in tldraw, where a binding record leaves the shape as it is.
 */
final class LockGuard {
  private LockGuard() {}

  /** The reason to refuse {@code diff} on {@code board}; empty when it leaves every locked shape be. */
  static Optional<String> refusal(Board board, RecordDiff diff) {
    ShapeLocks locks = new ShapeLocks(board);
    Set<String> touched = new TreeSet<>();
    for (String removed : diff.remove()) {
      if (locks.holds(removed)) {
        touched.add(removed);
      }
    }
    for (JsonObject put : diff.put()) {
      if (!"shape".equals(put.getString("typeName"))) {
        continue;
      }
      String id = put.getString("id");
      if (put.equals(board.record(id).orElse(null))) {
        continue;
      }
      if (locks.holds(id)) {
        touched.add(id);
      } else if (put.getValue("parentId") instanceof String parent && locks.holds(parent)) {
        // A new shape, or one moved, into a locked frame or group: the lock holds its contents.
        touched.add(parent);
      }
    }
    return touched.isEmpty() ? Optional.empty() : Optional.of(LockedRefusal.reason(touched));
  }
}
