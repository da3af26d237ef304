package dev.canvasagent.patch;

import io.vertx.core.Future;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One operation at a time per room: each waits for the room's previous one to end (however it ended)
 * before it starts. A held board changes in steps that span store calls (a commit, then the board
 * advanced; a read of revisions, then them applied), and two of them interleaving would apply a
 * revision to a board that has moved. Rooms do not wait for each other. On the patch engine's event
 * loop only.
 */
final class RoomTurns {
  private final Map<String, Future<Void>> tails = new HashMap<>();

  /** Runs {@code operation} once the room's earlier operations have ended; its future is the answer. */
  <T> Future<T> next(String roomId, Supplier<Future<T>> operation) {
    Future<Void> previous = tails.getOrDefault(roomId, Future.succeededFuture());
    Future<T> result = previous.transform(done -> start(operation));
    Future<Void> tail = result.transform(done -> Future.<Void>succeededFuture());
    tails.put(roomId, tail);
    tail.onComplete(done -> tails.remove(roomId, tail));
    return result;
  }

  /** How many rooms have an operation under way or waiting. */
  int busyRooms() {
    return tails.size();
  }

  private static <T> Future<T> start(Supplier<Future<T>> operation) {
    try {
      return operation.get();
    } catch (RuntimeException unexpected) {
      return Future.failedFuture(unexpected);
    }
  }
}
