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
  /** A record's entries in the board's map, its indexes and its JsonObject. */
  static final long PER_RECORD = 256;

  /** Java strings and boxed values of a parsed record, per character of its JSON text. */
  static final long PER_JSON_CHARACTER = 4;

  private BoardBytes() {}

  /** What {@code board} is estimated to cost while held. */
  static long of(Board board) {
    return PER_RECORD * board.records().size() + PER_JSON_CHARACTER * board.estimatedBytes();
  }
}
