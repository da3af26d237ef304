package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;

/**
 * One room as the patch engine holds it: its board at the newest revision this node has seen
 * committed. Only ever a revision the store has committed: loaded whole, caught up from stored
 * revisions, or advanced by a commit the store accepted. Changed on the patch engine's event loop only.
 */
final class CachedRoom {
  private Board board;
  private long lastUsedNanos;

  /** Its idle timer, while it is held. */
  long idleTimer = -1;

  CachedRoom(Board board, long nowNanos) {
    this.board = board;
    this.lastUsedNanos = nowNanos;
  }

  Board board() {
    return board;
  }

  String roomId() {
    return board.roomId();
  }

  long revision() {
    return board.revision();
  }

  /** What the board is estimated to cost in memory ({@link BoardBytes}). */
  long estimatedBytes() {
    return BoardBytes.of(board);
  }

  long lastUsedNanos() {
    return lastUsedNanos;
  }

  void used(long nowNanos) {
    lastUsedNanos = nowNanos;
  }

  /** The board after {@code diff}, committed as {@code revision}. */
  void apply(RecordDiff diff, long revision) {
    board = board.apply(diff, revision);
  }
}
