package dev.canvasagent.store.memory;

import dev.canvasagent.store.BoardStore.BoardRevision;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One room's revisions in the memory store, oldest first, trimmed to a {@link RevisionRetention}
 * from the oldest end as new ones arrive. Only history is lost: the room's current records are kept
 * apart, by the store. Not thread-safe; the store's lock guards it.
 */
final class RevisionHistory {
  /** What a kept revision costs besides its diff and author: its number, time and the deque's slot. */
  static final int OVERHEAD_BYTES = 64;

  private final RevisionRetention retention;
  private final ArrayDeque<Kept> kept = new ArrayDeque<>();
  private long bytes;

  private record Kept(BoardRevision revision, long bytes) {}

  RevisionHistory(RevisionRetention retention) {
    this.retention = retention;
  }

  /** Appends the newest revision, then drops the oldest until both limits hold again (never the newest). */
  void append(BoardRevision revision) {
    long size = sizeOf(revision);
    kept.addLast(new Kept(revision, size));
    bytes += size;
    while (kept.size() > 1
        && (kept.size() > retention.revisionsPerRoom() || bytes > retention.bytesPerRoom())) {
      bytes -= kept.removeFirst().bytes();
    }
  }

  /** The kept revisions after {@code afterRevision}, oldest first, at most {@code limit}. */
  List<BoardRevision> after(long afterRevision, int limit) {
    List<BoardRevision> page = new ArrayList<>();
    if (kept.isEmpty() || kept.peekLast().revision().revision() <= afterRevision) {
      return page;
    }
    // Kept revisions are consecutive, so the ones at or before afterRevision are the first few.
    long first = kept.peekFirst().revision().revision();
    long skip = Math.max(0, afterRevision + 1 - first);
    Iterator<Kept> it = kept.iterator();
    for (long i = 0; i < skip; i++) {
      it.next();
    }
    while (it.hasNext() && page.size() < limit) {
      page.add(it.next().revision());
    }
    return page;
  }

  int size() {
    return kept.size();
  }

  long bytes() {
    return bytes;
  }

  static long sizeOf(BoardRevision revision) {
    String author = revision.author() == null ? "" : revision.author();
    return revision.diff().toJson().toBuffer().length()
        + author.getBytes(StandardCharsets.UTF_8).length
        + OVERHEAD_BYTES;
  }
}
