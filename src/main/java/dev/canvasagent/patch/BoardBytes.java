package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;

/**
 * A cheap estimate of what a held board costs in memory, which the cache bound counts: each record's
 * JSON text several times over (a parsed JsonObject keeps a map entry, a key and a value object per
 * field), plus a fixed cost per record for its place in the board's map and the indexes. An estimate
 * only, so that sizing a change costs what the change touches, never a walk of the heap.
 */
final class BoardBytes {
  /** A record's map entry in the board, its JsonObject and its entries in {@link RecordReferrers}. */
  static final long PER_RECORD = 256;

  /** Java strings and boxed values of a parsed record, per character of its JSON text. */
  static final long PER_JSON_CHARACTER = 4;

  private BoardBytes() {}

  /** What {@code record} is estimated to cost while held. */
  static long of(JsonObject record) {
    return PER_RECORD + PER_JSON_CHARACTER * record.encode().length();
  }

  /** What a whole board is estimated to cost: read once, when it is loaded. */
  static long of(Board board) {
    long bytes = 0;
    for (JsonObject record : board.records().values()) {
      bytes += of(record);
    }
    return bytes;
  }
}
