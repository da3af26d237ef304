package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What must hold between records once a diff is applied, beyond each record being valid on its own:
 * every shape's parent exists (the page, a frame or a group) without cycles or absurd depth, every
 * binding joins an arrow to an existing shape, and nothing removed is still referred to. Reads the
 * records the diff puts or removes and those that point at them (through {@link Board#childIds} and
 * {@link Board#bindingIds}), never the whole board.
 */
public final class BoardIntegrity {
  static final int MAX_DEPTH = 100;
  private static final Set<String> PARENT_TYPES = Set.of("frame", "group");

  private BoardIntegrity() {}

  /** The first problem the diff would cause on this board, naming the record; empty when it is sound. */
  public static Optional<String> problem(Board board, RecordDiff diff) {
    for (String removed : diff.remove()) {
      if (board.record(removed).isEmpty()) {
        return Optional.of(removed + ": no such record to remove");
      }
    }
    for (JsonObject record : diff.put()) {
      String typeName = record.getString("typeName");
      if (!"shape".equals(typeName) && !"binding".equals(typeName) && !"asset".equals(typeName)) {
        return Optional.of(
            record.getString("id") + ": only shape, binding and asset records can change");
      }
    }
    Board next = board.apply(diff, board.revision() + 1);
    for (JsonObject record : diff.put()) {
      String typeName = record.getString("typeName");
      Optional<String> problem =
          "shape".equals(typeName)
              ? shapeProblem(next, record, Set.copyOf(diff.remove()))
                  .or(() -> assetProblem(next, record))
              : "binding".equals(typeName) ? bindingProblem(next, record) : Optional.empty();
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
    // Only the records that point at them can: the children of each and the bindings of each
    // removed one, found through the board's indexes. Of several, the one with the lowest id.
    TreeMap<String, String> problems = new TreeMap<>();
    Set<String> parents = new TreeSet<>(removed);
    parents.addAll(cannotParent);
    for (String parentId : parents) {
      for (String child : next.childIds(parentId)) {
        problems.putIfAbsent(
            child,
            child
                + " parentId: "
                + parentId
                + (removed.contains(parentId) ? " is removed" : " cannot contain shapes"));
      }
    }
    for (String gone : removed) {
      for (String bindingId : next.bindingIds(gone)) {
        JsonObject binding = next.records().get(bindingId);
        for (String end : new String[] {"fromId", "toId"}) {
          if (gone.equals(binding.getString(end))) {
            problems.putIfAbsent(bindingId, bindingId + " " + end + ": " + gone + " is removed");
          }
        }
      }
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(problems.firstEntry().getValue());
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

  /** An image or video shows the asset record it names, which the board must hold. */
  private static Optional<String> assetProblem(Board board, JsonObject shape) {
    if (!TldrawShapeProps.MEDIA.containsKey(shape.getString("type"))) {
      return Optional.empty();
    }
    Object assetId = shape.getJsonObject("props").getValue("assetId");
    if (assetId instanceof String id
        && board
            .record(id)
            .map(found -> !"asset".equals(found.getString("typeName")))
            .orElse(true)) {
      return Optional.of(
          shape.getString("id") + " props.assetId: " + id + " is not an asset on the board");
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
