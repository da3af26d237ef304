package dev.canvasagent.board;

import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.bound;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.note;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.GeneratedBoards;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A board applies a diff by sharing what the diff did not touch, iterates its records by id whatever
 * order they came in, and keeps its children by parent, its bindings by shape and its size estimate
 * in step with its records.
 */
class BoardTest {
  static final String PAGE = ShapeRecords.PAGE_ID;

  @Test
  void recordsAndTheirJsonAreInIdOrderWhateverOrderTheyArrivedIn() {
    Map<String, JsonObject> arrived = new LinkedHashMap<>();
    for (String id : List.of("c", "a", "b")) {
      arrived.put("shape:" + id, at("a1", in(PAGE, note(id, 0, 0))));
    }
    Board loaded = new Board("room-1", 1, arrived);
    Board applied =
        Board.empty("room-1")
            .apply(new RecordDiff(new ArrayList<>(arrived.values()), List.of()), 1);

    List<String> byId = List.of("shape:a", "shape:b", "shape:c");
    assertEquals(byId, List.copyOf(loaded.records().keySet()));
    assertEquals(byId, List.copyOf(applied.records().keySet()));
    assertEquals(loaded.toJson(), applied.toJson());
    JsonArray records = Board.fromJson(loaded.toJson()).toJson().getJsonArray("records");
    assertEquals(
        byId, records.stream().map(record -> ((JsonObject) record).getString("id")).toList());
  }

  @Test
  void applyLeavesTheBoardItCameFromAsItWasAndSharesTheUntouchedRecords() {
    Board before =
        new Board("room-1", 1, Map.of("shape:a", note("a", 0, 0), "shape:b", note("b", 0, 0)));
    Board after = before.apply(new RecordDiff(List.of(note("c", 5, 5)), List.of("shape:a")), 2);

    assertEquals(List.of("shape:a", "shape:b"), List.copyOf(before.records().keySet()));
    assertEquals(List.of("shape:b", "shape:c"), List.copyOf(after.records().keySet()));
    assertSame(before.records().get("shape:b"), after.records().get("shape:b"));
    assertEquals(2, after.revision());
  }

  @Test
  void aRecordToPutWithoutAnIdIsRefusedByNameAndTheBoardIsUnchanged() {
    Board board = new Board("room-1", 1, Map.of("shape:a", note("a", 0, 0)));
    JsonObject nameless = note("x", 0, 0);
    nameless.remove("id");

    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> board.apply(new RecordDiff(List.of(note("b", 0, 0), nameless), List.of()), 2));

    assertTrue(refused.getMessage().contains("no string id"), refused.getMessage());
    assertEquals(List.of("shape:a"), List.copyOf(board.records().keySet()));
  }

  @Test
  void childrenAreByIndexThenIdAndTheTopIndexIsTheHighestOnThePage() {
    Board board =
        new Board(
            "room-1",
            1,
            Map.of(
                "shape:f", at("a5", in(PAGE, frame("f", 0, 0, 500, 500))),
                "shape:x", at("a2", in("f", note("x", 0, 0))),
                "shape:y", at("a1", in("f", note("y", 0, 0))),
                "shape:z", at("a1", in("f", note("z", 0, 0))),
                "shape:p", at("a3", in(PAGE, note("p", 0, 0)))));

    assertEquals(List.of("shape:y", "shape:z", "shape:x"), board.childIds("shape:f"));
    assertEquals(List.of("shape:p", "shape:f"), board.childIds(PAGE));
    assertEquals("a5", board.topIndexOnPage(PAGE).orElseThrow());
    assertTrue(board.topIndexOnPage("page:other").isEmpty());

    Board moved = board.apply(RecordDiff.putting(at("a9", in(PAGE, note("x", 0, 0)))), 2);
    assertEquals(List.of("shape:y", "shape:z"), moved.childIds("shape:f"));
    assertEquals("a9", moved.topIndexOnPage(PAGE).orElseThrow());
    assertEquals(List.of("shape:y", "shape:z", "shape:x"), board.childIds("shape:f"));
  }

  @Test
  void bindingsAreFoundFromEitherEnd() {
    Board board =
        new Board(
            "room-1",
            1,
            Map.of(
                "binding:s", bound("s", "shape:arrow", "start", "shape:a"),
                "binding:e", bound("e", "shape:arrow", "end", "shape:b")));

    assertEquals(List.of("binding:e", "binding:s"), board.bindingIds("shape:arrow"));
    assertEquals(List.of("binding:s"), board.bindingIds("shape:a"));
    Board unbound = board.apply(new RecordDiff(List.of(), List.of("binding:s")), 2);
    assertEquals(List.of("binding:e"), unbound.bindingIds("shape:arrow"));
    assertEquals(List.of(), unbound.bindingIds("shape:a"));
  }

  @Test
  void theSizeEstimateFollowsEveryDiffAndEqualsMeasuringTheWholeBoard() {
    Random random = new Random(3);
    Board board = GeneratedBoards.generate(3, 300);
    for (int step = 0; step < 200; step++) {
      List<String> ids = new ArrayList<>(board.records().keySet());
      String id = ids.get(random.nextInt(ids.size()));
      JsonObject record = board.records().get(id).copy();
      RecordDiff diff =
          switch (random.nextInt(3)) {
            case 0 -> new RecordDiff(List.of(), List.of(id));
            case 1 ->
                RecordDiff.putting(
                    record.put(
                        "meta", new JsonObject().put("note", "x".repeat(random.nextInt(500)))));
            default -> RecordDiff.putting(note("new" + step, step, step));
          };
      board = board.apply(diff, board.revision() + 1);
      assertEquals(
          new Board("room-1", 0, board.records()).estimatedBytes(), board.estimatedBytes());
    }
    long measured =
        board.records().values().stream().mapToLong(record -> record.encode().length()).sum();
    assertEquals(measured, board.estimatedBytes());
    assertTrue(
        board.records().keySet().stream()
            .sorted(Comparator.naturalOrder())
            .toList()
            .equals(List.copyOf(board.records().keySet())));
  }

  @Test
  void shapesPlacedAlikeAreFoundWhateverTheNumbersAreWrittenAsAndFollowEveryDiff() {
    JsonObject a = at("a1", in(PAGE, note("a", 100, 40)));
    JsonObject b = at("a2", in(PAGE, note("b", 100, 40))).put("x", 100).put("y", 40L);
    JsonObject elsewhere = at("a3", in(PAGE, note("c", 101, 40)));
    Board board = new Board("room-1", 1, Map.of("shape:a", a, "shape:b", b, "shape:c", elsewhere));

    assertEquals(List.of("shape:a", "shape:b"), board.shapeIdsPlacedLike(note("new", 100, 40)));
    Board moved = board.apply(RecordDiff.putting(a.copy().put("x", 101.0)), 2);
    assertEquals(List.of("shape:b"), moved.shapeIdsPlacedLike(note("new", 100, 40)));
    assertEquals(List.of("shape:a", "shape:c"), moved.shapeIdsPlacedLike(elsewhere));
    Board removed = moved.apply(new RecordDiff(List.of(), List.of("shape:b")), 3);
    assertEquals(List.of(), removed.shapeIdsPlacedLike(note("new", 100, 40)));
  }

  @Test
  void aBoardKnowsTheIdsItsDiffChangedFromTheBoardItWasAppliedToOnly() {
    Board board = new Board("room-1", 1, Map.of("shape:a", note("a", 0, 0)));
    Board next =
        board.apply(
            new RecordDiff(List.of(note("b", 0, 0)), List.of("shape:a", "shape:never-there")), 2);

    assertEquals(Optional.of(Set.of("shape:a", "shape:b")), next.idsChangedFrom(board));
    assertEquals(Optional.empty(), board.idsChangedFrom(next));
    assertEquals(Optional.empty(), next.idsChangedFrom(next));
    Board loadedWhole = new Board("room-1", 1, board.records());
    assertEquals(Optional.empty(), next.idsChangedFrom(loadedWhole));
    assertEquals(Optional.empty(), loadedWhole.idsChangedFrom(board));
  }
}
