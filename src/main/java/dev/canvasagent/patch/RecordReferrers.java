package dev.canvasagent.patch;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which records refer to each record of a held board (a shape's children by {@code parentId}, the
 * bindings at either end of an arrow or on a shape), kept as the board changes, so that checking a
 * diff reads the records it touches and those that depend on them instead of the whole board.
 * Built once when a board is loaded, then changed by each record put or removed; the patch engine's
 * alone, on its event loop.
 */
final class RecordReferrers implements BoardIntegrity.Referrers {
  private final Map<String, Set<String>> byTarget = new HashMap<>();

  static RecordReferrers of(Board board) {
    RecordReferrers referrers = new RecordReferrers();
    board.records().values().forEach(referrers::add);
    return referrers;
  }

  @Override
  public Collection<String> of(String id) {
    return byTarget.getOrDefault(id, Set.of());
  }

  /** {@code record} is now on the board. */
  void add(JsonObject record) {
    String id = record.getString("id");
    for (String target : BoardIntegrity.references(record)) {
      byTarget.computeIfAbsent(target, key -> new HashSet<>()).add(id);
    }
  }

  /** {@code record} is no longer on the board (removed, or replaced by another version). */
  void remove(JsonObject record) {
    String id = record.getString("id");
    for (String target : BoardIntegrity.references(record)) {
      Set<String> referrers = byTarget.get(target);
      if (referrers != null) {
        referrers.remove(id);
        if (referrers.isEmpty()) {
          byTarget.remove(target);
        }
      }
    }
  }
}
