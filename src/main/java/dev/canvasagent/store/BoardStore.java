package dev.canvasagent.store;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import io.vertx.core.Future;
import java.util.List;

/** Boards: the current records of each room and the history of every revision that made them. */
public interface BoardStore {
  /** The room's current board; revision 0 and no records for a room never written. */
  Future<Board> load(String roomId);

  /**
   * Applies {@code diff} atomically as revision {@code baseRevision + 1}. Fails with
   * {@link RevisionConflict} (and changes nothing) when the room is no longer at {@code baseRevision}.
   */
  Future<Long> commit(String roomId, long baseRevision, RecordDiff diff, String author);

  /** The revisions after {@code afterRevision}, oldest first, at most {@code limit}. */
  Future<List<BoardRevision>> revisions(String roomId, long afterRevision, int limit);

  /** One stored revision: its number, the diff that made it, and who made it. */
  record BoardRevision(long revision, RecordDiff diff, String author, long createdAtMillis) {}
}
