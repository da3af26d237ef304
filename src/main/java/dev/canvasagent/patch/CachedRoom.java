package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One room as the patch engine holds it: its board at the newest revision this node has seen
 * committed, the index of which records refer to which, and the board's estimated size. Only ever a
 * revision the store has committed: loaded whole, caught up from stored revisions, or advanced by a
 * commit the store accepted. Changed on the patch engine's event loop only.
 */
final class CachedRoom {
  private Board board;
  private final RecordReferrers referrers;
  private long bytes;
  private long lastUsedNanos;

  /** Its idle timer, while it is held. */
  long idleTimer = -1;

  CachedRoom(Board board, long nowNanos) {
    this.board = board;
    this.referrers = RecordReferrers.of(board);
    this.bytes = BoardBytes.of(board);
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

  RecordReferrers referrers() {
    return referrers;
  }

  /**
   * What the board is estimated to cost in memory. The one place the estimate is read: when Board
   * keeps its own estimate, this returns that instead of the running sum kept here.
   */
  long estimatedBytes() {
    return bytes;
  }

  long lastUsedNanos() {
    return lastUsedNanos;
  }

  void used(long nowNanos) {
    lastUsedNanos = nowNanos;
  }

  /** The board after {@code diff}, committed as {@code revision}; the index and the size follow it. */
  void apply(RecordDiff diff, long revision) {
    Board before = board;
    // As Board.apply does it: removals first, then puts, a later put of an id over an earlier one.
    Map<String, JsonObject> puts = new LinkedHashMap<>();
    diff.put().forEach(record -> puts.put(record.getString("id"), record));
    Set<String> replaced = new HashSet<>(diff.remove());
    replaced.addAll(puts.keySet());
    for (String id : replaced) {
      before.record(id).ifPresent(this::forget);
    }
    for (JsonObject record : puts.values()) {
      referrers.add(record);
      bytes += BoardBytes.of(record);
    }
    board = before.apply(diff, revision);
  }

  private void forget(JsonObject record) {
    referrers.remove(record);
    bytes -= BoardBytes.of(record);
  }
}
