package dev.canvasagent.patch;

import dev.canvasagent.board.Board;

/**
 * A cheap estimate of what a held board costs in memory, which the cache bound counts: the records'
 * JSON text several times over (a parsed JsonObject keeps a map entry, a key and a value object per
 * field), plus a fixed cost per record for its place in the board's map and indexes. Read from what
 * the board keeps up to date as diffs are applied ({@link Board#estimatedBytes}, its size), so sizing
 * a change costs nothing, never a walk of the heap.
 */
final class BoardBytes {
  /*
   * Calibrated on five generated 10,000-shape boards (frames, notes, text, arrows; 413 characters of
   * JSON a record on average), loaded from JSON as a store loads them: 3,063 bytes of live heap a
   * record for the board and its indexes, and 676 more once its shape index is built — 3,739 in all,
   * which 1,700 + 5 × 413 = 3,765 covers. The first estimate (256 + 4 a character) counted 62% of it.
   */

  /** A record's entries in the board's map and indexes, its shape index entry and its JsonObject. */
  static final long PER_RECORD = 1_700;

  /** Java strings and boxed values of a parsed record, per character of its JSON text. */
  static final long PER_JSON_CHARACTER = 5;

  private BoardBytes() {}

  /** What {@code board} is estimated to cost while held. */
  static long of(Board board) {
    return PER_RECORD * board.records().size() + PER_JSON_CHARACTER * board.estimatedBytes();
  }
}
