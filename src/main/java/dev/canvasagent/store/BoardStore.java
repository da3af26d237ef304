package dev.canvasagent.store;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import io.vertx.core.Future;
import java.util.List;

/**
 * Boards: the current records of each room and the history of the revisions that made them. A store
 * may keep only the newer part of that history (the memory store trims it, {@code
 * CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM}); the current records are never trimmed.
 */
public interface BoardStore {
  /** The room's current board; revision 0 and no records for a room never written. */
  Future<Board> load(String roomId);

  /**
   * The room's current revision, 0 for a room never written. By default read from the loaded board; a
   * store that can read the number alone does so.
   */
  default Future<Long> currentRevision(String roomId) {
    return load(roomId).map(Board::revision);
  }

  /**
   * Applies {@code diff} atomically as revision {@code baseRevision + 1}. Fails with
   * {@link RevisionConflict} (and changes nothing) when the room is no longer at {@code baseRevision}.
   */
  default Future<Long> commit(String roomId, long baseRevision, RecordDiff diff, String author) {
    return commit(roomId, baseRevision, diff, author, null);
  }

  /**
   * As {@link #commit(String, long, RecordDiff, String)}, the revision marked as made by run {@code
   * runId} (null: by no run), so that a run's revisions can be found exactly to revert it.
   */
  Future<Long> commit(
      String roomId, long baseRevision, RecordDiff diff, String author, String runId);

  /**
   * The kept revisions after {@code afterRevision}, oldest first, consecutive, at most {@code limit}.
   * When history up to a later revision has been trimmed, the page starts at the oldest kept one: a
   * first revision other than {@code afterRevision + 1} is a gap the caller must detect (and, to
   * rebuild a board, answer by {@link #load loading} it whole). The newest revision is always kept, so
   * an empty page means the room has no revision after {@code afterRevision}, never that it was
   * trimmed.
   */
  Future<List<BoardRevision>> revisions(String roomId, long afterRevision, int limit);

  /** One stored revision: its number, the diff that made it, who made it, and the run that did (or null). */
  record BoardRevision(
      long revision, RecordDiff diff, String author, long createdAtMillis, String runId) {
    /** A revision no run made. */
    public BoardRevision(long revision, RecordDiff diff, String author, long createdAtMillis) {
      this(revision, diff, author, createdAtMillis, null);
    }
  }
}
