package dev.canvasagent.patch;

import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.CommittedRevision;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.HealthProbe;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.store.BoardStore.BoardRevision;
import dev.canvasagent.store.Store;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The patch engine's boards against a real store, as two nodes see it: two patch engines, each on a
 * Vert.x of its own with its own held boards, writing through one store. Whatever one commits, the
 * other catches up with from the stored revisions; a gap those cannot fill loads the board whole; a
 * commit the store refuses is judged again against the caught-up board; a commit whose answer is lost
 * lets the room go. After every step the board each node holds is the store's at that revision, and
 * no change is lost or applied twice.
 */
abstract class BoardCacheContract {
  /** The store a node on {@code vertx} uses: one store, or a connection of its own to one database. */
  protected abstract Store storeFor(Vertx vertx);

  Node a;
  Node b;

  @BeforeEach
  void twoNodes() {
    a = new Node(Vertx.vertx());
    b = new Node(Vertx.vertx());
  }

  @AfterEach
  void stopNodes() {
    // Closing a node's Vert.x closes its pool.
    for (Node node : List.of(a, b)) {
      Await.result(node.vertx.close());
    }
  }

  @Test
  void aNodeBehindCatchesUpFromTheRevisionsAfterItsOwnWithoutLoadingTheBoard() {
    String room = "catch-up";
    commit(a, room, 0, RecordDiff.putting(geo("first", 0, 0, 10, 10)));
    for (int i = 1; i <= 3; i++) {
      commit(b, room, i, RecordDiff.putting(geo("by-b-" + i, i * 20, 0, 10, 10)));
    }

    Board caughtUp = a.board(room);

    assertEquals(4, caughtUp.revision());
    assertEquals(stored(room).records(), caughtUp.records());
    assertEquals(1, a.boards.loads.get(), "loaded once, when the room was first used");
    assertEquals(3, a.cache().getLong("caughtUpRevisions"));
    assertHoldsTheStoresBoard(a, room);
  }

  @Test
  void aGapTheStoredRevisionsCannotFillLoadsTheBoardWhole() {
    String room = "gap";
    commit(a, room, 0, RecordDiff.putting(geo("first", 0, 0, 10, 10)));
    for (int i = 1; i <= 4; i++) {
      commit(b, room, i, RecordDiff.putting(geo("by-b-" + i, i * 20, 0, 10, 10)));
    }
    // The history through revision 3 is gone: revisions 2 and 3 cannot be applied to a's revision
    // 1.
    a.boards.trimmedThrough.set(3);

    Board reloaded = a.board(room);

    assertEquals(5, reloaded.revision());
    assertEquals(stored(room).records(), reloaded.records());
    assertEquals(2, a.boards.loads.get(), "loaded whole again: the gap could not be filled");
    assertEquals(1, a.cache().getJsonObject("evictions").getLong("gap"));
    assertHoldsTheStoresBoard(a, room);
  }

  @Test
  void aCommitTheStoreRefusesIsJudgedAgainstTheCaughtUpBoard() {
    String room = "recheck";
    commit(a, room, 0, RecordDiff.putting(frame("box", 0, 0, 300, 300)));
    // b removes the frame that a's next change puts a shape in; a still holds revision 1.
    commit(b, room, 1, new RecordDiff(List.of(), List.of("shape:box")));

    Failure refused =
        Failure.of(
            Await.failure(
                a.change(room, 1, RecordDiff.putting(in("box", geo("inside", 10, 10, 5, 5))))));

    assertEquals(FailureCode.REVISION_CONFLICT, refused.code(), refused.getMessage());
    assertTrue(refused.getMessage().contains("is at revision 2, not 1"), refused.getMessage());
    assertEquals(1, a.health().getLong("rechecked"));
    assertEquals(1, a.boards.loads.get(), "caught up, not loaded");
    assertHoldsTheStoresBoard(a, room);
    assertEquals(2, a.held.held(room).orElseThrow().revision());

    // Judged against the caught-up board, the same shape in the removed frame is refused as such.
    Failure invalid =
        Failure.of(
            Await.failure(
                a.change(room, 2, RecordDiff.putting(in("box", geo("inside", 10, 10, 5, 5))))));
    assertEquals(FailureCode.INVALID_RECORD, invalid.code(), invalid.getMessage());
    assertEquals(2, stored(room).revision(), "nothing committed");
  }

  @Test
  void aChangeBasedOnARevisionThisNodeHasNotSeenCatchesUpAndCommits() {
    String room = "ahead";
    commit(a, room, 0, RecordDiff.putting(geo("first", 0, 0, 10, 10)));
    commit(b, room, 1, RecordDiff.putting(geo("second", 20, 0, 10, 10)));

    CommittedRevision third =
        Await.result(a.change(room, 2, RecordDiff.putting(geo("third", 40, 0, 10, 10))));

    assertEquals(new CommittedRevision(3, true), third);
    assertEquals(1, a.boards.loads.get());
    assertHoldsTheStoresBoard(a, room);
    assertEquals(3, a.held.held(room).orElseThrow().revision());
  }

  @Test
  void aCommitWhoseAnswerIsLostLetsTheRoomGoAndTheNextReadHasTheStoresBoard() {
    String room = "lost-answer";
    commit(a, room, 0, RecordDiff.putting(geo("first", 0, 0, 10, 10)));
    a.boards.loseNextCommitAnswer.set(true);

    Failure lost =
        Failure.of(
            Await.failure(a.change(room, 1, RecordDiff.putting(geo("landed", 20, 0, 10, 10)))));

    assertEquals(FailureCode.STORE_UNAVAILABLE, lost.code(), lost.getMessage());
    assertTrue(a.held.held(room).isEmpty(), "the room is let go");
    assertEquals(1, a.cache().getJsonObject("evictions").getLong("unknown_outcome"));
    Board after = a.board(room);
    assertEquals(2, after.revision(), "the commit landed: the store says so");
    assertTrue(after.record("shape:landed").isPresent());
    assertEquals(2, a.boards.loads.get());
  }

  /**
   * Both nodes change one room at once, step after step, each from the revision it holds and again
   * after a conflict: after every step each node's board is the store's at its revision, and at the
   * end every accepted change is in the store once, and nothing else.
   */
  @Test
  void twoEnginesWritingOneRoomEachHoldTheStoresBoardAndLoseNothing() {
    String room = "two-engines";
    Set<String> expected = new TreeSet<>();
    AtomicInteger accepted = new AtomicInteger();
    for (int step = 0; step < 25; step++) {
      List<Future<String>> changes = new ArrayList<>();
      for (Node node : List.of(a, b)) {
        String id = "shape:" + node.name + "-" + step;
        RecordDiff diff =
            step % 5 == 4
                // Every fifth step each node removes its shape of the step before.
                ? new RecordDiff(List.of(), List.of("shape:" + node.name + "-" + (step - 1)))
                : RecordDiff.putting(geo(node.name + "-" + step, step * 15, 0, 10, 10));
        changes.add(node.changeUntilCommitted(room, diff, 100).map(committed -> id));
      }
      for (Future<String> change : changes) {
        Await.result(change);
        accepted.incrementAndGet();
      }
      if (step % 5 == 4) {
        expected.remove("shape:a-" + (step - 1));
        expected.remove("shape:b-" + (step - 1));
      } else {
        expected.add("shape:a-" + step);
        expected.add("shape:b-" + step);
      }
      assertHoldsTheStoresBoard(a, room);
      assertHoldsTheStoresBoard(b, room);
    }

    Board stored = stored(room);
    assertEquals(expected, new TreeSet<>(stored.records().keySet()));
    assertEquals(accepted.get(), stored.revision(), "one revision per accepted change");
    assertEquals(accepted.get(), history(room, 0).size());
    assertEquals(stored.records(), a.board(room).records());
    assertEquals(stored.records(), b.board(room).records());
  }

  /** Commits through {@code node}, which must accept it as the next revision. */
  void commit(Node node, String room, long base, RecordDiff diff) {
    assertEquals(
        new CommittedRevision(base + 1, true), Await.result(node.change(room, base, diff)));
  }

  /** The room as a fresh read of the store has it. */
  Board stored(String room) {
    return Await.result(a.real.boards().load(room));
  }

  List<BoardRevision> history(String room, long after) {
    return Await.result(a.real.boards().revisions(room, after, 10_000));
  }

  /** What {@code node} holds for the room is the store's history replayed to the same revision. */
  void assertHoldsTheStoresBoard(Node node, String room) {
    Board held = node.held.held(room).orElseThrow(() -> new AssertionError(node.name + " holds"));
    Board replayed = Board.empty(room);
    for (BoardRevision revision : history(room, 0)) {
      if (revision.revision() > held.revision()) {
        break;
      }
      replayed = replayed.apply(revision.diff(), revision.revision());
    }
    assertEquals(held.revision(), replayed.revision(), node.name + "'s revision is stored");
    assertEquals(replayed.records(), held.records(), node.name + " at " + held.revision());
  }

  /** One node: a Vert.x of its own, its store, its patch engine and the boards it holds. */
  final class Node {
    final Vertx vertx;
    final Store real;
    final Store store;
    final ScriptedBoards boards;
    final NodeBoards held = new NodeBoards();
    final String name;

    Node(Vertx vertx) {
      this.vertx = vertx;
      this.name = a == null ? "a" : "b";
      this.real = storeFor(vertx);
      this.boards = new ScriptedBoards(real.boards());
      this.store = ScriptedBoards.over(real, boards);
      Await.result(
          vertx.deployVerticle(
              new PatchEngineVerticle(store, TestServer.config(Map.of()).boardCache(), held)));
    }

    Board board(String room) {
      return Await.result(Address.PATCH_BOARD_GET.ask(vertx.eventBus(), BoardRef.current(room)))
          .board();
    }

    Future<CommittedRevision> change(String room, long base, RecordDiff diff) {
      return Address.PATCH_BOARD_CHANGE.ask(
          vertx.eventBus(), new BoardChangeRequest(room, base, diff, "person:" + name));
    }

    /** As a person's client does: from the revision this node says is current, again on a conflict. */
    Future<CommittedRevision> changeUntilCommitted(String room, RecordDiff diff, int tries) {
      return Address.PATCH_BOARD_HEAD
          .ask(vertx.eventBus(), new RoomRef(room))
          .compose(head -> change(room, head.revision(), diff))
          .recover(
              error ->
                  Failure.of(error).code() == FailureCode.REVISION_CONFLICT && tries > 1
                      ? changeUntilCommitted(room, diff, tries - 1)
                      : Future.failedFuture(error));
    }

    JsonObject health() {
      return Await.result(Address.health("patch-engine").ask(vertx.eventBus(), new HealthProbe()))
          .detail();
    }

    JsonObject cache() {
      return health().getJsonObject("boardCache");
    }
  }
}
