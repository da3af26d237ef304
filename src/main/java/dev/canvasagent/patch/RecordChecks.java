package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.RecordDiff;
import java.util.Optional;

/** Everything a diff must pass before it is committed, whoever made it. */
final class RecordChecks {
  private RecordChecks() {}

  static Optional<String> problem(Board board, RecordDiff diff) {
    return BoardIntegrity.problem(board, diff);
  }
}
