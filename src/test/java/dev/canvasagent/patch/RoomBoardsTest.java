package dev.canvasagent.patch;

import static dev.canvasagent.support.TestShapes.geo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.support.Await;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The held boards' bounds: by bytes, the least recently used room goes first and the room in use
 * stays even alone over the bound; by idleness, a room goes once unused for the idle time, and each
 * use puts that off. Driven on an event loop, as the patch engine drives it; waits are for the
 * evictions themselves, never a sleep.
 */
@ExtendWith(VertxExtension.class)
class RoomBoardsTest {
  static final long LONG_IDLE_MS = 3_600_000;

  record Evicted(String roomId, RoomBoards.Eviction why) {}

  final MemoryStore store = new MemoryStore();
  final NodeBoards shared = new NodeBoards();
  final List<Evicted> evictions = new ArrayList<>();

  /** A room of {@code shapes} shapes in the store, and what it is estimated to cost when held. */
  long room(String roomId, int shapes) {
    JsonObject[] records =
        IntStream.range(0, shapes)
            .mapToObj(i -> geo(roomId + "-" + i, i * 20, 0, 10, 10))
            .toArray(JsonObject[]::new);
    Await.result(store.commit(roomId, 0, RecordDiff.putting(records), "person"));
    return BoardBytes.of(Await.result(store.load(roomId)));
  }

  RoomBoards boards(Vertx vertx, long maxBytes, long idleMs) {
    return new RoomBoards(
        vertx,
        store,
        shared,
        maxBytes,
        idleMs,
        (roomId, why) -> evictions.add(new Evicted(roomId, why)));
  }

  /** Runs {@code step} on {@code context}'s event loop and waits for it. */
  static <T> T on(Context context, Supplier<Future<T>> step) {
    return Await.result(
        Future.<T>future(promise -> context.runOnContext(go -> step.get().onComplete(promise))));
  }

  @Test
  void overTheByteBoundTheLeastRecentlyUsedRoomGoesFirst(Vertx vertx) {
    long size = room("one", 40);
    room("two", 40);
    long three = room("three", 40);
    Context loop = vertx.getOrCreateContext();
    RoomBoards boards = boards(vertx, size * 5 / 2, LONG_IDLE_MS);

    on(loop, () -> boards.room("one"));
    on(loop, () -> boards.room("two"));
    on(loop, () -> boards.room("one")); // "two" is now the least recently used
    on(loop, () -> boards.room("three"));

    assertEquals(List.of(new Evicted("two", RoomBoards.Eviction.BYTES)), evictions);
    assertEquals(List.of("one", "three"), boards.heldRooms().stream().sorted().toList());
    assertTrue(shared.held("two").isEmpty(), "no longer shared either");
    assertTrue(boards.bytes() <= size * 5 / 2, "within the bound: " + boards.bytes());
    assertEquals(size + three, boards.bytes());
  }

  @Test
  void aCommitThatGrowsABoardPastTheBoundLetsTheOthersGo(Vertx vertx) {
    long size = room("small", 10);
    room("growing", 10);
    Context loop = vertx.getOrCreateContext();
    RoomBoards boards = boards(vertx, size * 3, LONG_IDLE_MS);
    on(loop, () -> boards.room("small"));
    CachedRoom growing = on(loop, () -> boards.room("growing"));

    RecordDiff more =
        RecordDiff.putting(
            IntStream.range(0, 20)
                .mapToObj(i -> geo("more-" + i, i * 20, 100, 10, 10))
                .toArray(JsonObject[]::new));
    Await.result(store.commit("growing", 1, more, "person"));
    on(
        loop,
        () -> {
          boards.committed(growing, more, 2);
          return Future.succeededFuture();
        });

    assertEquals(List.of(new Evicted("small", RoomBoards.Eviction.BYTES)), evictions);
    assertEquals(List.of("growing"), boards.heldRooms(), "a board over the bound is held alone");
    Board held = shared.held("growing").orElseThrow();
    assertEquals(Await.result(store.load("growing")).records(), held.records());
    assertEquals(BoardBytes.of(held), boards.bytes(), "the running estimate is the board's");
  }

  @Test
  void aRoomUnusedForTheIdleTimeGoes(Vertx vertx, VertxTestContext test) {
    room("quiet", 3);
    Context loop = vertx.getOrCreateContext();
    RoomBoards boards =
        new RoomBoards(
            vertx,
            store,
            shared,
            Long.MAX_VALUE,
            50,
            (roomId, why) ->
                test.verify(
                    () -> {
                      assertEquals("quiet", roomId);
                      assertEquals(RoomBoards.Eviction.IDLE, why);
                      assertTrue(shared.held("quiet").isEmpty());
                      test.completeNow();
                    }));
    loop.runOnContext(go -> boards.room("quiet").onFailure(test::failNow));
  }

  @Test
  void eachUsePutsTheIdleEvictionOff(Vertx vertx, VertxTestContext test) {
    room("busy", 3);
    Context loop = vertx.getOrCreateContext();
    int uses = 6;
    int[] used = {0};
    RoomBoards boards =
        new RoomBoards(
            vertx,
            store,
            shared,
            Long.MAX_VALUE,
            400,
            (roomId, why) ->
                test.verify(
                    () -> {
                      assertEquals(RoomBoards.Eviction.IDLE, why);
                      assertEquals(uses, used[0], "not before the last use");
                      test.completeNow();
                    }));
    loop.runOnContext(
        go ->
            boards
                .room("busy")
                .onSuccess(
                    loaded ->
                        vertx.setPeriodic(
                            50,
                            timer -> {
                              boards.room("busy");
                              if (++used[0] == uses) {
                                vertx.cancelTimer(timer);
                              }
                            }))
                .onFailure(test::failNow));
  }
}
