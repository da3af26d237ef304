package dev.canvasagent.sanitizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.support.GeneratedBoards;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property: looking a new shape's copy up among the shapes placed like it answers what scanning every
 * record of the board answered, on random boards and random creates (exact copies, the same numbers
 * written otherwise, copies moved, restyled or reparented), on boards carried forward by {@link
 * Board#apply} and on the same boards loaded whole. Seeds are fixed, so a failure reproduces.
 */
class DedupeLookupTest {
  /** The scan {@link Dedupe} did before: every record of the board, by id, for each create. */
  static Optional<String> scanned(Board board, RecordDiff diff) {
    return diff.put().stream()
        .filter(put -> Dedupe.isNewShape(board, put))
        .flatMap(
            put ->
                board.records().values().stream()
                    .filter(existing -> "shape".equals(existing.getString("typeName")))
                    .filter(existing -> Dedupe.sameButIdentity(put, existing)))
        .map(existing -> existing.getString("id"))
        .findFirst();
  }

  @Test
  void onRandomBoardsAndCreatesTheLookupAnswersWhatTheScanAnswered() {
    int duplicates = 0;
    int creates = 0;
    for (long seed = 1; seed <= 25; seed++) {
      Random random = new Random(seed);
      Board board = withSomeWholeNumbers(GeneratedBoards.generate(seed, 30 + random.nextInt(150)));
      for (int step = 0; step < 60; step++) {
        RecordDiff diff = new RandomCreates(board, random, step).next();
        Optional<String> expected = scanned(board, diff);
        String label = "seed " + seed + " step " + step + " " + diff.toJson().encode();
        assertEquals(expected, Dedupe.duplicateOf(board, diff), label);
        Board loadedWhole = new Board(board.roomId(), board.revision(), board.records());
        assertEquals(expected, Dedupe.duplicateOf(loadedWhole, diff), "loaded whole, " + label);
        creates++;
        duplicates += expected.isPresent() ? 1 : 0;
        if (random.nextInt(3) > 0) {
          // Committed: later copies meet several shapes at one place, moved and removed ones.
          board = board.apply(diff, board.revision() + 1);
        }
      }
    }
    assertTrue(duplicates > creates / 5, duplicates + " duplicates of " + creates);
    assertTrue(duplicates < creates * 4 / 5, duplicates + " duplicates of " + creates);
  }

  /** Every third shape moved to whole coordinates, so copies can write them as 100 or 100.0. */
  private static Board withSomeWholeNumbers(Board board) {
    List<JsonObject> moved = new ArrayList<>();
    int n = 0;
    for (JsonObject record : board.records().values()) {
      if ("shape".equals(record.getValue("typeName")) && n++ % 3 == 0) {
        moved.add(
            record
                .copy()
                .put("x", Math.rint(number(record, "x")))
                .put("y", Math.rint(number(record, "y"))));
      }
    }
    return board.apply(new RecordDiff(moved, List.of()), board.revision() + 1);
  }

  private static double number(JsonObject record, String field) {
    return record.getValue(field) instanceof Number value ? value.doubleValue() : 0;
  }

  /** Random diffs that put a new shape, most of them copies of a shape on the board, some not quite. */
  private static final class RandomCreates {
    private final Board board;
    private final Random random;
    private final int step;
    private final List<JsonObject> shapes = new ArrayList<>();

    RandomCreates(Board board, Random random, int step) {
      this.board = board;
      this.random = random;
      this.step = step;
      shapes.addAll(
          board.records().values().stream()
              .filter(record -> "shape".equals(record.getValue("typeName")))
              .toList());
    }

    RecordDiff next() {
      JsonObject original = shapes.get(random.nextInt(shapes.size()));
      JsonObject copy =
          original.copy().put("id", "shape:new-" + step).put("index", "a" + random.nextInt(90));
      return switch (random.nextInt(12)) {
        case 0, 1, 2 -> RecordDiff.putting(copy);
        case 3 -> RecordDiff.putting(sameNumbersWrittenOtherwise(copy));
        case 4 -> RecordDiff.putting(copy.put("x", number(copy, "x") + 1));
        case 5 -> RecordDiff.putting(copy.put("rotation", 0.5));
        case 6 -> RecordDiff.putting(copy.put("props", new JsonObject().put("color", "red")));
        case 7 -> RecordDiff.putting(copy.put("parentId", otherParent(original)));
        case 8 -> RecordDiff.putting(random.nextBoolean() ? copy.putNull("y") : without(copy, "y"));
        case 9 -> {
          // The original moved to 0, 0 first; the copy at -0.0, which JSON holds equal.
          JsonObject atZero = original.copy().put("x", 0.0).put("y", 0);
          JsonObject copyAtZero = copy.put("x", -0.0).put("y", random.nextBoolean() ? -0.0 : 0L);
          yield new RecordDiff(List.of(atZero, copyAtZero), List.of());
        }
        case 10 -> {
          // An update and a copy in one diff: the update is no create, the copy still is.
          JsonObject moved = original.copy().put("y", number(original, "y") + 7);
          yield new RecordDiff(List.of(moved, copy), List.of());
        }
        default -> new RecordDiff(List.of(), List.of(original.getString("id")));
      };
    }

    /** The copy with x and y as other number types of the same value: 100, 100L, 100.0f, 100.0. */
    private JsonObject sameNumbersWrittenOtherwise(JsonObject copy) {
      for (String field : List.of("x", "y")) {
        if (!(copy.getValue(field) instanceof Double)) {
          continue;
        }
        double value = copy.getDouble(field);
        if (value == Math.rint(value) && Math.abs(value) < 1e6) {
          copy.put(field, random.nextBoolean() ? (Object) (int) value : (Object) (long) value);
        } else if ((float) value == value) {
          copy.put(field, (float) value);
        }
      }
      return copy;
    }

    private String otherParent(JsonObject shape) {
      String parent = shape.getString("parentId");
      return ShapeRecords.PAGE_ID.equals(parent)
          ? shapes.get(random.nextInt(shapes.size())).getString("id")
          : ShapeRecords.PAGE_ID;
    }

    private static JsonObject without(JsonObject record, String field) {
      record.remove(field);
      return record;
    }
  }
}
