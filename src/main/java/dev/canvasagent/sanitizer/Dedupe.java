package dev.canvasagent.sanitizer;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * Duplicate creates: a new shape identical to one already on the board (same type, parent,
 * position, rotation and props — only its id and index differ) is the model re-running a create,
 * and is ignored. Finding the copy costs the shapes at the new shape's place, not the board.
 */
final class Dedupe {
  private Dedupe() {}

  /** The id of the existing shape a newly put record duplicates, if any. */
  static Optional<String> duplicateOf(Board board, RecordDiff diff) {
    return diff.put().stream()
        .filter(put -> isNewShape(board, put))
        .flatMap(
            put ->
                // A copy shares the type, parent and position: only the shapes placed so are
                // compared, lowest id first, as a scan of the board by id would meet them.
                board.shapeIdsPlacedLike(put).stream()
                    .map(candidate -> board.record(candidate).orElseThrow())
                    .filter(existing -> sameButIdentity(put, existing)))
        .map(existing -> existing.getString("id"))
        .findFirst();
  }

  /** A shape the diff puts that is not on the board yet: a create. */
  static boolean isNewShape(Board board, JsonObject put) {
    return "shape".equals(put.getString("typeName")) && board.record(put.getString("id")).isEmpty();
  }

  /** Whether the records are the same but for their id and index. */
  static boolean sameButIdentity(JsonObject record, JsonObject other) {
    return withoutIdentity(record).equals(withoutIdentity(other));
  }

  private static JsonObject withoutIdentity(JsonObject record) {
    JsonObject copy = record.copy();
    copy.remove("id");
    copy.remove("index");
    return copy;
  }
}
