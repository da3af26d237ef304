package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What must hold between records once a diff is applied, beyond each record being valid on its own:
 * every shape's parent exists (the page, a frame or a group) without cycles or absurd depth, every
 * binding joins an arrow to an existing shape, and nothing removed is still referred to.
 */
public final class BoardIntegrity {
  static final int MAX_DEPTH = 100;
  private static final Set<String> PARENT_TYPES = Set.of("frame", "group");

  private BoardIntegrity() {}

  /**
   * The records that refer to a record by id ({@code parentId}, a binding's {@code fromId} or
   * {@code toId}): what a removal or a shape that can no longer parent may leave dangling. The patch
   * engine keeps them indexed for the boards it holds, so that a check costs what the diff touches.
   */
  @FunctionalInterface
  public interface Referrers {
    /** The ids of the records that refer to {@code id}; empty when none do. */
    Collection<String> of(String id);
  }

  /**
   * The first problem the diff would cause on this board, naming the record; empty when it is sound.
   * Finds the records that refer to what the diff removes by reading the whole board.
   */
  public static Optional<String> problem(Board board, RecordDiff diff) {
    return problem(board, diff, scanning(board));
  }

  /**
   * The first problem the diff would cause on this board, the records that refer to others found by
   * {@code referrers} (which must answer for this board as it is before the diff).
   */
  public static Optional<String> problem(Board board, RecordDiff diff, Referrers referrers) {
    for (String removed : diff.remove()) {
      if (board.record(removed).isEmpty()) {
        return Optional.of(removed + ": no such record to remove");
      }
    }
    for (JsonObject record : diff.put()) {
      String typeName = record.getString("typeName");
      if (!"shape".equals(typeName) && !"binding".equals(typeName)) {
        return Optional.of(record.getString("id") + ": only shape and binding records can change");
      }
    }
    Board next = board.apply(diff, board.revision() + 1);
    for (JsonObject record : diff.put()) {
      Optional<String> problem =
          "shape".equals(record.getString("typeName"))
              ? shapeProblem(next, record, Set.copyOf(diff.remove()))
              : bindingProblem(next, record);
      if (problem.isPresent()) {
        return problem;
      }
    }
    // Records the diff did not touch may still refer to what it removed, or to a shape that can no
    // longer parent.
    Set<String> removed = new HashSet<>(diff.remove());
    removed.removeIf(id -> next.record(id).isPresent());
    Set<String> cannotParent = new HashSet<>();
    diff.put().stream()
        .filter(
            record ->
                "shape".equals(record.getString("typeName"))
                    && !PARENT_TYPES.contains(record.getString("type")))
        .forEach(record -> cannotParent.add(record.getString("id")));
    if (removed.isEmpty() && cannotParent.isEmpty()) {
      return Optional.empty();
    }
    // Only the records that referred to those ids before the diff can: any other record the diff
    // puts was checked above. In id order, so the same diff is always refused naming the same
    // record.
    Set<String> candidates = new TreeSet<>();
    removed.forEach(id -> candidates.addAll(referrers.of(id)));
    cannotParent.forEach(id -> candidates.addAll(referrers.of(id)));
    for (String candidate : candidates) {
      JsonObject record = next.record(candidate).orElse(null);
      if (record == null) {
        continue;
      }
      String parentId = record.getString("parentId");
      if (parentId != null && (removed.contains(parentId) || cannotParent.contains(parentId))) {
        return Optional.of(
            record.getString("id")
                + " parentId: "
                + parentId
                + (removed.contains(parentId) ? " is removed" : " cannot contain shapes"));
      }
      for (String end : new String[] {"fromId", "toId"}) {
        if (removed.contains(record.getString(end))) {
          return Optional.of(
              record.getString("id") + " " + end + ": " + record.getString(end) + " is removed");
        }
      }
    }
    return Optional.empty();
  }

  /** Every record's references, read from the whole board once. */
  static Referrers scanning(Board board) {
    Map<String, List<String>> byTarget = new HashMap<>();
    for (JsonObject record : board.records().values()) {
      for (String target : references(record)) {
        byTarget.computeIfAbsent(target, id -> new ArrayList<>()).add(record.getString("id"));
      }
    }
    return id -> byTarget.getOrDefault(id, List.of());
  }

  /** The ids {@code record} refers to: its parent, and a binding's two ends. */
  public static List<String> references(JsonObject record) {
    List<String> targets = new ArrayList<>(3);
    for (String field : new String[] {"parentId", "fromId", "toId"}) {
      if (record.getValue(field) instanceof String target) {
        targets.add(target);
      }
    }
    return targets;
  }

  private static Optional<String> shapeProblem(Board board, JsonObject shape, Set<String> removed) {
    String id = shape.getString("id");
    String parentId = shape.getString("parentId");
    if (parentId == null || parentId.startsWith("page:")) {
      return Optional.empty();
    }
    Optional<JsonObject> parent = board.record(parentId);
    if (parent.isEmpty()) {
      return Optional.of(
          id
              + " parentId: no shape "
              + parentId
              + (removed.contains(parentId) ? " (removed)" : ""));
    }
    if (!PARENT_TYPES.contains(parent.get().getString("type"))) {
      return Optional.of(
          id
              + " parentId: "
              + parentId
              + " is a "
              + parent.get().getString("type")
              + ", not a frame or group");
    }
    String current = parentId;
    for (int depth = 1; current != null && !current.startsWith("page:"); depth++) {
      if (current.equals(id)) {
        return Optional.of(id + " parentId: the shape would contain itself");
      }
      if (depth > MAX_DEPTH) {
        return Optional.of(id + " parentId: nested deeper than " + MAX_DEPTH);
      }
      current = board.record(current).map(record -> record.getString("parentId")).orElse(null);
    }
    return Optional.empty();
  }

  private static Optional<String> bindingProblem(Board board, JsonObject binding) {
    String id = binding.getString("id");
    Optional<JsonObject> from = board.record(binding.getString("fromId"));
    if (from.isEmpty() || !"arrow".equals(from.get().getString("type"))) {
      return Optional.of(
          id + " fromId: " + binding.getString("fromId") + " is not an arrow on the board");
    }
    Optional<JsonObject> to = board.record(binding.getString("toId"));
    if (to.isEmpty() || !"shape".equals(to.get().getString("typeName"))) {
      return Optional.of(
          id + " toId: " + binding.getString("toId") + " is not a shape on the board");
    }
    return Optional.empty();
  }
}
