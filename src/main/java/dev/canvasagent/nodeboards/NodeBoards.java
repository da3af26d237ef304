package dev.canvasagent.nodeboards;

import dev.canvasagent.board.Board;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The boards this node's patch engine holds, one per cached room at its cached revision: immutable
 * snapshots that the runner and the sanitizer of the same node read by (room, revision) instead of
 * having a whole board sent to them over the bus. Created once per node (by {@code CanvasAgent}) and
 * handed to the verticles that share it; thread-safe, since they run on different event loops. Only
 * the patch engine writes it, and only boards it has committed or read from the store; a reader that
 * does not find the revision it wants asks the patch engine over the bus ({@link BoardLookup}).
 */
public final class NodeBoards {
  private final ConcurrentMap<String, Board> boards = new ConcurrentHashMap<>();

  /** The room's board at {@code revision}, when this node holds exactly that one. */
  public Optional<Board> at(String roomId, long revision) {
    Board board = boards.get(roomId);
    return board != null && board.revision() == revision ? Optional.of(board) : Optional.empty();
  }

  /** The room's board at the newest revision this node holds, if it holds the room. */
  public Optional<Board> held(String roomId) {
    return Optional.ofNullable(boards.get(roomId));
  }

  /** The room's board is now {@code board} (the patch engine's cache moved to its revision). */
  public void hold(Board board) {
    boards.put(board.roomId(), board);
  }

  /** The room is no longer held (evicted): readers ask the patch engine. */
  public void release(String roomId) {
    boards.remove(roomId);
  }

  /** How many rooms are held. */
  public int size() {
    return boards.size();
  }
}
