package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.Store;
import io.vertx.core.Future;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's view of a real store, with two faults a test can turn on: the history up to a revision
 * trimmed away (as a store with a retention limit keeps it), and a commit that lands but whose answer
 * is lost (the connection dropped after the commit was sent). Counts the whole-board loads.
 */
final class ScriptedBoards implements BoardStore {
  private final BoardStore real;
  final AtomicLong trimmedThrough = new AtomicLong();
  final AtomicBoolean loseNextCommitAnswer = new AtomicBoolean();
  final AtomicInteger loads = new AtomicInteger();

  ScriptedBoards(BoardStore real) {
    this.real = real;
  }

  /** {@code store} with its boards seen through a {@link ScriptedBoards}. */
  static Store over(Store store, ScriptedBoards boards) {
    return (Store)
        Proxy.newProxyInstance(
            Store.class.getClassLoader(),
            new Class<?>[] {Store.class},
            (proxy, method, arguments) ->
                method.getName().equals("boards") ? boards : method.invoke(store, arguments));
  }

  @Override
  public Future<Board> load(String roomId) {
    loads.incrementAndGet();
    return real.load(roomId);
  }

  @Override
  public Future<Long> commit(
      String roomId, long baseRevision, RecordDiff diff, String author, String runId) {
    Future<Long> committed = real.commit(roomId, baseRevision, diff, author, runId);
    if (loseNextCommitAnswer.compareAndSet(true, false)) {
      return committed.transform(
          done -> Future.failedFuture(new IllegalStateException("connection reset")));
    }
    return committed;
  }

  @Override
  public Future<List<BoardRevision>> revisions(String roomId, long afterRevision, int limit) {
    long from = Math.max(afterRevision, trimmedThrough.get());
    return real.revisions(roomId, from, limit);
  }
}
