package dev.canvasagent.runner;

import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.note;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.geometry.RandomDiffs;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.support.GeneratedBoards;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What a run held, kept for the cost of its changes, answers what reading every record of every board
 * it held answered: over random runs of the run's own commits, boards read whole after someone else's
 * changes, the same board twice, and boards made from an older one than the last. Seeds are fixed.
 */
class DeletedTargetsTest {
  static final ActionCatalog CATALOG = ActionCatalog.standard();

  @Test
  void whatTheRunHeldIsAnsweredAsReadingEveryBoardAnswered() {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      DeletedTargets targets = new DeletedTargets(CATALOG);
      Set<String> scanned = new HashSet<>();
      Set<String> everyId = new TreeSet<>();
      List<Board> held = new ArrayList<>();
      Board current = GeneratedBoards.generate(seed, 20 + random.nextInt(80));
      for (int step = 0; step < 80; step++) {
        int pick = random.nextInt(10);
        Board next;
        if (step == 0 || pick < 5) {
          next = step == 0 ? current : changed(current, random); // the run's own commit
        } else if (pick < 8) {
          // Read whole after a person's changes, as after a conflict.
          Board moved = current;
          for (int i = 0; i <= random.nextInt(3); i++) {
            moved = changed(moved, random);
          }
          next = new Board(moved.roomId(), moved.revision(), moved.records());
        } else if (pick < 9) {
          next = current;
        } else {
          next = changed(held.get(random.nextInt(held.size())), random);
        }
        targets.saw(next);
        held.add(next);
        current = next;
        next.records()
            .values()
            .forEach(
                record -> {
                  if ("shape".equals(record.getString("typeName"))) {
                    scanned.add(record.getString("id"));
                  }
                });
        everyId.addAll(next.records().keySet());
        for (String id : everyId) {
          assertEquals(
              scanned.contains(id), targets.held(id), "seed " + seed + " step " + step + " " + id);
        }
      }
    }
  }

  private static Board changed(Board board, Random random) {
    RecordDiff diff = new RandomDiffs(board, random).next();
    return board.apply(diff, board.revision() + 1);
  }

  @Test
  void aShapeOnAnEarlierBoardAndGoneNowIsDeletedOneNeverSeenIsNot() {
    DeletedTargets targets = new DeletedTargets(CATALOG);
    Board before = board(note("kept", 0, 0), note("gone", 100, 0));
    targets.saw(before);
    Board after = before.apply(new RecordDiff(List.of(), List.of("shape:gone")), 2);
    targets.saw(after);
    AgentAction delete =
        new AgentAction(
            "a1",
            "delete_shape",
            new JsonObject().put("shapeIds", new JsonArray(List.of("gone", "kept", "to-come"))));

    assertEquals(Optional.of(List.of("gone")), targets.deleted(delete, after));
  }
}
