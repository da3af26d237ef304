package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.RandomDiffs;
import dev.canvasagent.support.GeneratedBoards;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Property: what {@code delete_shape} removes with the shapes named (their descendants, the bindings
 * touching any of them), read from the board's children by parent and bindings by record, is what
 * scanning every record for each parent answered, in the same order; on random boards of frames,
 * groups and bound arrows, carried through random diffs (reparenting, cycles, orphans). Seeds are
 * fixed.
 */
class DeleteShapeDependentsTest {
  /** The scan {@link DeleteShapeVerb#withDependents} did before: every record, for every parent. */
  static List<String> scanned(Board board, Set<String> shapeIds) {
    Set<String> shapes = new LinkedHashSet<>(shapeIds);
    List<String> frontier = new ArrayList<>(shapeIds);
    while (!frontier.isEmpty()) {
      String parent = frontier.remove(frontier.size() - 1);
      for (JsonObject record : board.records().values()) {
        if (parent.equals(record.getString("parentId")) && shapes.add(record.getString("id"))) {
          frontier.add(record.getString("id"));
        }
      }
    }
    List<String> removed = new ArrayList<>(shapes);
    for (JsonObject record : board.records().values()) {
      if ("binding".equals(record.getString("typeName"))
          && (shapes.contains(record.getString("fromId"))
              || shapes.contains(record.getString("toId")))) {
        removed.add(record.getString("id"));
      }
    }
    return removed;
  }

  @Test
  void onRandomBoardsTheDependentsAreWhatTheScanFound() {
    int withDescendants = 0;
    int withBindings = 0;
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      Board board = GeneratedBoards.generate(seed, 40 + random.nextInt(120));
      for (int step = 0; step < 30; step++) {
        List<String> shapes =
            board.records().values().stream()
                .filter(record -> "shape".equals(record.getValue("typeName")))
                .map(record -> record.getString("id"))
                .toList();
        Set<String> named = new LinkedHashSet<>();
        for (int i = 0; i <= random.nextInt(4); i++) {
          named.add(shapes.get(random.nextInt(shapes.size())));
        }
        List<String> expected = scanned(board, named);
        assertEquals(
            expected,
            DeleteShapeVerb.withDependents(board, named),
            "seed " + seed + " step " + step + " " + named);
        withDescendants +=
            expected.stream().anyMatch(id -> id.startsWith("shape:") && !named.contains(id))
                ? 1
                : 0;
        withBindings += expected.stream().anyMatch(id -> id.startsWith("binding:")) ? 1 : 0;
        board = board.apply(new RandomDiffs(board, random).next(), board.revision() + 1);
      }
    }
    assertTrue(withDescendants > 20, withDescendants + " deletions with descendants");
    assertTrue(withBindings > 20, withBindings + " deletions with bindings");
  }
}
