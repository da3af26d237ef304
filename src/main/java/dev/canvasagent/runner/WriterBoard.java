package dev.canvasagent.runner;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.nodeboards.BoardLookup;
import io.vertx.core.Future;
import java.util.function.Consumer;

/**
 * The room's board as one writer (a run, or an outside action) last saw it: read from the node's
 * boards, read again after a conflict, carried forward by the writer's own commits. Its revision is
 * the one the writer's next action is judged and committed against.
 */
final class WriterBoard {
  private final BoardLookup boards;
  private final String roomId;

  /** Told of every board the writer sees (a run remembers the shapes on it, {@link DeletedTargets}). */
  private final Consumer<Board> seen;

  private Board board;

  WriterBoard(BoardLookup boards, String roomId, Consumer<Board> seen) {
    this.boards = boards;
    this.roomId = roomId;
    this.seen = seen;
  }

  /** Null until the first {@link #reload}. */
  Board current() {
    return board;
  }

  /** Reads the room's current board. */
  Future<Board> reload() {
    return boards
        .current(roomId)
        .map(
            current -> {
              see(current);
              return current;
            });
  }

  /**
   * The writer committed {@code diff} on the current board as {@code revision}. The patch engine holds
   * the board it committed: the same records as this diff applied here, without copying the board.
   */
  Board committed(RecordDiff diff, long revision) {
    see(boards.heldAt(roomId, revision).orElseGet(() -> board.apply(diff, revision)));
    return board;
  }

  private void see(Board next) {
    board = next;
    seen.accept(next);
  }
}
