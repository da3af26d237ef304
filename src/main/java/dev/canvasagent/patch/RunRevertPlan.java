package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunReverted.KeptChange;
import dev.canvasagent.store.BoardStore.BoardRevision;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What reverting one run does to a board, worked out from the board's history: for every record the
 * run touched, its state just before the run's first change to it. A record whose latest change is the
 * run's goes back to that state (one it created is removed, one it deleted is put back, one it updated
 * gets its before-state again); a record someone changed after the run is left alone and reported; a
 * record already as it was before the run needs nothing, which is what makes a second revert change
 * nothing.
 *
 * <p>Comparing contents rather than authors is deliberate: the revert's own revision is nobody's run,
 * and a record a person changed and then put back exactly as the run left it is still the run's work.
 *
 * @param diff the revert, empty when nothing is left to revert
 * @param reverted the ids the diff puts back or removes, in the order the run first touched them
 * @param keptChanged the records left alone, each with the author of its latest change
 */
record RunRevertPlan(RecordDiff diff, List<String> reverted, List<KeptChange> keptChanged) {

  /** A record's state at some point of the history: absent (never made, or removed) is null. */
  private record State(JsonObject record, Writer writer) {}

  /** Who made a state: the revision's author and whether it was the run being reverted. */
  private record Writer(String author, boolean byTheRun) {}

  /**
   * The revert of run {@code runId} on {@code board}, from {@code history}: the board's kept revisions
   * up to the board's own, oldest first.
   *
   * @throws Failure RUN_NOT_REVERTIBLE when the kept history starts after revision 1 and the run touched
   *     a record whose state before it is therefore unknown, or no longer holds the run at all
   */
  static RunRevertPlan of(String runId, List<BoardRevision> history, Board board) {
    boolean trimmed = !history.isEmpty() && history.get(0).revision() > 1;
    Map<String, State> latest = new LinkedHashMap<>();
    Map<String, State> beforeRun = new LinkedHashMap<>();
    boolean sawRun = false;
    for (BoardRevision revision : history) {
      if (revision.revision() > board.revision()) {
        break;
      }
      boolean byTheRun = runId.equals(revision.runId());
      sawRun |= byTheRun;
      Writer writer = new Writer(revision.author(), byTheRun);
      for (String id : revision.diff().remove()) {
        touch(id, null, writer, latest, beforeRun, trimmed);
      }
      for (JsonObject record : revision.diff().put()) {
        touch(record.getString("id"), record, writer, latest, beforeRun, trimmed);
      }
    }
    if (!sawRun && trimmed) {
      throw new Failure(
          FailureCode.RUN_NOT_REVERTIBLE,
          "the board's kept history no longer reaches back to run " + runId);
    }
    List<JsonObject> put = new ArrayList<>();
    List<String> remove = new ArrayList<>();
    List<String> reverted = new ArrayList<>();
    List<KeptChange> keptChanged = new ArrayList<>();
    for (Map.Entry<String, State> touched : beforeRun.entrySet()) {
      String id = touched.getKey();
      JsonObject before = touched.getValue().record();
      Optional<JsonObject> now = board.record(id);
      if (now.isEmpty() ? before == null : now.get().equals(before)) {
        continue;
      }
      Writer last = latest.get(id).writer();
      if (!last.byTheRun()) {
        keptChanged.add(new KeptChange(id, last.author()));
        continue;
      }
      reverted.add(id);
      if (before == null) {
        remove.add(id);
      } else {
        put.add(before);
      }
    }
    return new RunRevertPlan(new RecordDiff(put, remove), reverted, keptChanged);
  }

  private static void touch(
      String id,
      JsonObject after,
      Writer writer,
      Map<String, State> latest,
      Map<String, State> beforeRun,
      boolean trimmed) {
    if (writer.byTheRun() && !beforeRun.containsKey(id)) {
      State before = latest.get(id);
      if (before == null && trimmed) {
        throw new Failure(
            FailureCode.RUN_NOT_REVERTIBLE,
            "the board's kept history does not reach back to before the run changed " + id);
      }
      beforeRun.put(id, before == null ? new State(null, writer) : before);
    }
    latest.put(id, new State(after, writer));
  }
}
