package dev.canvasagent.nodeboards;

import dev.canvasagent.board.Board;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.BoardSnapshot;
import dev.canvasagent.bus.RoomRef;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import java.util.Optional;

/**
 * How a verticle other than the patch engine gets a room's board: by revision, from the boards its
 * node holds ({@link NodeBoards}), and only when the node does not hold that revision (evicted since,
 * or the patch engine that answered is another node's) by value over the bus. One per verticle, used
 * on its event loop; it counts how often each way was taken.
 */
public final class BoardLookup {
  private final NodeBoards boards;
  private final EventBus bus;
  private long held;
  private long fetched;

  public BoardLookup(NodeBoards boards, EventBus bus) {
    this.boards = boards;
    this.bus = bus;
  }

  /**
   * The room's board at {@code revision}. Fails with REVISION_CONFLICT when the room has moved past it
   * and no one holds it any more.
   */
  public Future<Board> at(String roomId, long revision) {
    Optional<Board> board = boards.at(roomId, revision);
    if (board.isPresent()) {
      held++;
      return Future.succeededFuture(board.get());
    }
    fetched++;
    return Address.PATCH_BOARD_GET
        .ask(bus, BoardRef.at(roomId, revision))
        .map(BoardSnapshot::board);
  }

  /**
   * The room's current board: its revision from the patch engine ({@code patch.board.head}), its
   * records from this node when held, else the current board by value.
   */
  public Future<Board> current(String roomId) {
    return Address.PATCH_BOARD_HEAD
        .ask(bus, new RoomRef(roomId))
        .compose(
            head -> {
              Optional<Board> board = boards.at(roomId, head.revision());
              if (board.isPresent()) {
                held++;
                return Future.succeededFuture(board.get());
              }
              fetched++;
              return Address.PATCH_BOARD_GET
                  .ask(bus, BoardRef.current(roomId))
                  .map(BoardSnapshot::board);
            });
  }

  /** The room's board at {@code revision} when this node holds it: no bus, no wait. */
  public Optional<Board> heldAt(String roomId, long revision) {
    return boards.at(roomId, revision);
  }

  /** How many boards were read from this node's {@link NodeBoards}. */
  public long held() {
    return held;
  }

  /** How many boards came by value over the bus. */
  public long fetched() {
    return fetched;
  }
}
