package dev.canvasagent.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunReverted.KeptChange;
import dev.canvasagent.store.BoardStore.BoardRevision;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Working out a run's revert from the board's history, without a server. */
class RunRevertPlanTest {
  static JsonObject record(String id, int x) {
    return new JsonObject().put("id", id).put("typeName", "shape").put("x", x);
  }

  /** The history's revisions applied to an empty board. */
  static Board replay(List<BoardRevision> history) {
    Board board = Board.empty("r");
    for (BoardRevision revision : history) {
      board = board.apply(revision.diff(), revision.revision());
    }
    return board;
  }

  static BoardRevision rev(long n, String runId, RecordDiff diff) {
    return new BoardRevision(n, diff, runId == null ? "person" : "agent:s", 0, runId);
  }

  @Test
  void createdIsRemovedUpdatedGoesBackDeletedComesBackAndAPersonsLaterChangeIsKept() {
    List<BoardRevision> history = new ArrayList<>();
    history.add(rev(1, null, RecordDiff.putting(record("p", 0), record("q", 0))));
    history.add(rev(2, "run", RecordDiff.putting(record("a", 1), record("b", 1), record("p", 5))));
    history.add(rev(3, "run", new RecordDiff(List.of(), List.of("q"))));
    history.add(rev(4, "other", RecordDiff.putting(record("c", 1))));
    history.add(rev(5, null, RecordDiff.putting(record("b", 9))));

    RunRevertPlan plan = RunRevertPlan.of("run", history, replay(history));

    assertEquals(List.of("a", "p", "q"), plan.reverted());
    assertEquals(List.of("a"), plan.diff().remove());
    assertEquals(List.of(record("p", 0), record("q", 0)), plan.diff().put());
    assertEquals(List.of(new KeptChange("b", "person")), plan.keptChanged());

    history.add(new BoardRevision(6, plan.diff(), "revert:run", 0, null));
    RunRevertPlan again = RunRevertPlan.of("run", history, replay(history));
    assertEquals(List.of(), again.reverted());
    assertEquals(true, again.diff().isEmpty());
    assertEquals(List.of(new KeptChange("b", "person")), again.keptChanged());
  }

  @Test
  void aRunThatChangedNothingHasNothingToRevert() {
    List<BoardRevision> history = List.of(rev(1, null, RecordDiff.putting(record("p", 0))));
    RunRevertPlan plan = RunRevertPlan.of("run", history, replay(history));
    assertEquals(true, plan.diff().isEmpty());
    assertEquals(List.of(), plan.keptChanged());
  }

  @Test
  void aHistoryTrimmedBeforeTheRunCannotSayWhatItsRecordsWere() {
    List<BoardRevision> kept = List.of(rev(7, "run", RecordDiff.putting(record("p", 5))));
    Board board = Board.empty("r").apply(RecordDiff.putting(record("p", 5)), 7);
    Failure failure = assertThrows(Failure.class, () -> RunRevertPlan.of("run", kept, board));
    assertEquals(FailureCode.RUN_NOT_REVERTIBLE, failure.code());

    Failure gone =
        assertThrows(
            Failure.class,
            () ->
                RunRevertPlan.of(
                    "earlier", List.of(rev(7, null, RecordDiff.putting(record("p", 5)))), board));
    assertEquals(FailureCode.RUN_NOT_REVERTIBLE, gone.code());
  }
}
