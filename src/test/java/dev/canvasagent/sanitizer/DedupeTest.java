package dev.canvasagent.sanitizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Duplicate creates: the model re-running a create is ignored; moves and updates are not. */
class DedupeTest {
  static final ActionCatalog CATALOG = ActionCatalog.standard();

  Board board = Board.empty("room-1");

  RecordDiff run(String verb, JsonObject params) {
    ActionCatalog.Entry entry = CATALOG.entry(verb).orElseThrow();
    assertEquals(Optional.empty(), entry.schema().violations(params));
    return entry
        .verb()
        .sanitize(params, new ActionContext(board, CoordinateFrame.atOrigin(), true))
        .diff();
  }

  RecordDiff commit(RecordDiff diff) {
    board = board.apply(diff, board.revision() + 1);
    return diff;
  }

  static JsonObject box(double x) {
    return new JsonObject()
        .put("type", "box")
        .put("x", x)
        .put("y", 40)
        .put("text", "Roadmap")
        .put("props", new JsonObject().put("color", "blue"));
  }

  @Test
  void anIdenticalNewShapeIsADuplicateOfTheExistingOne() {
    String first = commit(run("create_shape", box(100))).put().get(0).getString("id");

    RecordDiff again = run("create_shape", box(100));

    JsonObject copy = again.put().get(0);
    assertEquals(false, copy.getString("id").equals(first));
    assertEquals(
        false,
        copy.getString("index").equals(board.record(first).orElseThrow().getString("index")));
    assertEquals(Optional.of(first), Dedupe.duplicateOf(board, again));
  }

  @Test
  void aPresetNoteCreatedTwiceIsADuplicate() {
    JsonObject params =
        new JsonObject()
            .put("preset", "Hero")
            .put("x", 10)
            .put("y", 10)
            .put("text", "Brutal honesty");
    String first = commit(run("apply_preset", params)).put().get(0).getString("id");
    assertEquals(Optional.of(first), Dedupe.duplicateOf(board, run("apply_preset", params)));
  }

  @Test
  void aMovedShapeIsNotADuplicate() {
    commit(run("create_shape", box(100)));
    assertEquals(Optional.empty(), Dedupe.duplicateOf(board, run("create_shape", box(101))));
  }

  @Test
  void aDifferentLabelOrStyleIsNotADuplicate() {
    commit(run("create_shape", box(100)));
    assertEquals(
        Optional.empty(),
        Dedupe.duplicateOf(board, run("create_shape", box(100).put("text", "Roadmap 2"))));
    assertEquals(
        Optional.empty(),
        Dedupe.duplicateOf(
            board,
            run("create_shape", box(100).put("props", new JsonObject().put("color", "red")))));
  }

  @Test
  void updatingAnExistingShapeIsNotADuplicate() {
    String first = commit(run("create_shape", box(100))).put().get(0).getString("id");
    commit(run("create_shape", box(300)));

    RecordDiff move = run("update_shape", new JsonObject().put("shapeId", first).put("x", 300));

    assertEquals(first, move.put().get(0).getString("id"));
    assertEquals(
        Optional.empty(),
        Dedupe.duplicateOf(board, move),
        "an update puts an id already on the board");
  }

  @Test
  void removalsAndNonShapeRecordsAreNeverDuplicates() {
    String first = commit(run("create_shape", box(100))).put().get(0).getString("id");
    assertEquals(
        Optional.empty(), Dedupe.duplicateOf(board, new RecordDiff(List.of(), List.of(first))));
    JsonObject binding = new JsonObject().put("id", "binding:1").put("typeName", "binding");
    assertEquals(Optional.empty(), Dedupe.duplicateOf(board, RecordDiff.putting(binding)));
  }

  @Test
  void onAnEmptyBoardNothingIsADuplicate() {
    assertEquals(Optional.empty(), Dedupe.duplicateOf(board, run("create_shape", box(100))));
  }
}
