package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.TldrawRecordValidator;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * Everything a diff must pass before it is committed, whoever made it: each record valid as tldraw's
 * own schema would have it (one invalid record makes a real editor refuse the whole board), then the
 * board still whole. Reads only the records the diff touches and those that refer to them (the board's
 * children and bindings indexes), never the whole board.
 */
final class RecordChecks {
  private RecordChecks() {}

  static Optional<String> problem(Board board, RecordDiff diff) {
    for (JsonObject record : diff.put()) {
      var problem = TldrawRecordValidator.check(record);
      if (problem.isPresent()) {
        return Optional.of(problem.get().toString());
      }
    }
    return BoardIntegrity.problem(board, diff);
  }
}
