package dev.canvasagent.store.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.store.BoardStore.BoardRevision;
import dev.canvasagent.support.Await;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The memory store keeps a room's newest revisions only, to a count and a byte size: the oldest go
 * first, the newest always stays, the board itself is never trimmed, and a reader asking for history
 * older than the oldest kept sees the gap (the first revision is not {@code after + 1}).
 */
class RevisionRetentionTest {
  static final String ROOM = "retained";

  static RecordDiff box(long n, String label) {
    return RecordDiff.putting(
        ShapeRecords.shape(
            "shape:box" + n,
            "geo",
            n * 10.0,
            0,
            "a1",
            ShapeRecords.geoProps("rectangle", 100, 50, label)));
  }

  /** Commits {@code count} boxes, one revision each, and returns the store. */
  static MemoryStore committed(RevisionRetention retention, int count, String label) {
    MemoryStore store = new MemoryStore(retention);
    for (long revision = 0; revision < count; revision++) {
      Await.result(store.commit(ROOM, revision, box(revision, label), "person"));
    }
    return store;
  }

  static List<Long> numbers(List<BoardRevision> revisions) {
    return revisions.stream().map(BoardRevision::revision).toList();
  }

  @Test
  void pastTheRevisionLimitTheOldestAreDroppedAndTheBoardKeepsEveryRecord() {
    MemoryStore store = committed(new RevisionRetention(3, 1L << 30), 10, "");

    assertEquals(List.of(8L, 9L, 10L), numbers(Await.result(store.revisions(ROOM, 0, 100))));
    Board board = Await.result(store.load(ROOM));
    assertEquals(10, board.revision());
    assertEquals(10, board.records().size(), "trimming history never loses the board");
  }

  @Test
  void pastTheByteLimitTheOldestAreDropped() {
    long one = RevisionHistory.sizeOf(new BoardRevision(1, box(1, "x".repeat(1000)), "person", 0));
    MemoryStore store =
        committed(new RevisionRetention(1_000, one * 4 + one / 2), 10, "x".repeat(1000));

    assertEquals(List.of(7L, 8L, 9L, 10L), numbers(Await.result(store.revisions(ROOM, 0, 100))));
  }

  @Test
  void theNewestRevisionIsKeptEvenWhenItAloneIsOverTheByteLimit() {
    MemoryStore store = committed(new RevisionRetention(1_000, 10), 3, "");

    assertEquals(List.of(3L), numbers(Await.result(store.revisions(ROOM, 0, 100))));
    assertEquals(
        List.of(), Await.result(store.revisions(ROOM, 3, 100)), "nothing after the newest");
  }

  @Test
  void askingForTrimmedHistoryShowsTheGapAndPagingOnFromThereIsConsecutive() {
    MemoryStore store = committed(new RevisionRetention(5, 1L << 30), 12, "");

    List<BoardRevision> first = Await.result(store.revisions(ROOM, 2, 2));
    assertEquals(List.of(8L, 9L), numbers(first), "starts at the oldest kept: 8 is not 2 + 1");
    List<BoardRevision> next = Await.result(store.revisions(ROOM, 9, 100));
    assertEquals(List.of(10L, 11L, 12L), numbers(next));
    assertEquals(
        LongStream.rangeClosed(9, 12).boxed().toList(),
        numbers(Await.result(store.revisions(ROOM, 8, 100))),
        "from inside the kept history, nothing is skipped");
  }

  @Test
  void longAfterTheFirstTrimPagesStillStartWhereAsked() {
    MemoryStore store = committed(new RevisionRetention(7, 1L << 30), 1_000, "");

    assertEquals(
        LongStream.rangeClosed(994, 1_000).boxed().toList(),
        numbers(Await.result(store.revisions(ROOM, 0, 100))));
    assertEquals(List.of(996L, 997L), numbers(Await.result(store.revisions(ROOM, 995, 2))));
    assertEquals(List.of(1_000L), numbers(Await.result(store.revisions(ROOM, 999, 100))));
  }

  @Test
  void theDefaultsAreTenThousandRevisionsAndSixtyFourMebibytes() {
    assertEquals(new RevisionRetention(10_000, 64L * 1024 * 1024), RevisionRetention.DEFAULT);
    MemoryStore store = committed(RevisionRetention.DEFAULT, 20, "");
    assertTrue(Await.result(store.revisions(ROOM, 0, 100)).size() == 20);
  }

  @Test
  void aLimitBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new RevisionRetention(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new RevisionRetention(1, 0));
  }
}
