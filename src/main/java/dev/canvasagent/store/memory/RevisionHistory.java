package dev.canvasagent.store.memory;

import dev.canvasagent.store.BoardStore.BoardRevision;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One room's revisions in the memory store, oldest first, trimmed to a {@link RevisionRetention}
 * from the oldest end as new ones arrive. Only history is lost: the room's current records are kept
 * apart, by the store. Kept revisions are consecutive, so a page is found by index, not by a scan:
 * a cache catching up on the newest few reads only those. Not thread-safe; the store's lock guards
 * it.
 */
final class RevisionHistory {
  /** What a kept revision costs besides its diff and author: its number, time and the list's slot. */
  static final int OVERHEAD_BYTES = 64;

  private final RevisionRetention retention;

  /** Oldest first; the first {@code dropped} are trimmed already and wait to be compacted away. */
  private final List<Kept> kept = new ArrayList<>();

  private int dropped;
  private long bytes;

  private record Kept(BoardRevision revision, long bytes) {}

  RevisionHistory(RevisionRetention retention) {
    this.retention = retention;
  }

  /** Appends the newest revision, then drops the oldest until both limits hold again (never the newest). */
  void append(BoardRevision revision) {
    long size = sizeOf(revision);
    kept.add(new Kept(revision, size));
    bytes += size;
    while (size() > 1
        && (size() > retention.revisionsPerRoom() || bytes > retention.bytesPerRoom())) {
      bytes -= kept.get(dropped).bytes();
      kept.set(dropped++, null);
    }
    // Compacted once the trimmed slots are half the list: amortized O(1) per revision.
    if (dropped > 0 && dropped >= kept.size() / 2) {
      kept.subList(0, dropped).clear();
      dropped = 0;
    }
  }

  /** The kept revisions after {@code afterRevision}, oldest first, at most {@code limit}. */
  List<BoardRevision> after(long afterRevision, int limit) {
    List<BoardRevision> page = new ArrayList<>();
    if (size() == 0) {
      return page;
    }
    long first = kept.get(dropped).revision().revision();
    long from = Math.max(0, afterRevision + 1 - first);
    for (long i = dropped + from; i < kept.size() && page.size() < limit; i++) {
      page.add(kept.get((int) i).revision());
    }
    return page;
  }

  int size() {
    return kept.size() - dropped;
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
