package dev.canvasagent.runner;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Tells an action whose shapes were deleted (by a person, most often, while the run went on) from one
 * that names shapes not created yet. Both are refused by the sanitizer as SHAPE_NOT_FOUND; the second
 * waits for the create that makes them, but the first can never apply again, so it is dropped at once
 * with that reason, listed in the run's final status ({@code targetsDeleted}), and the run goes on.
 * A shape was deleted when a board the run held had it and the current one does not.
 *
 * <p>What the run held is kept for the cost of its changes: a board the run's own commit made from
 * the last one adds the shapes its diff put; a board read whole (the first, one after a conflict) is
 * kept as it is and asked only when an action's shapes are missing. Past {@link #WHOLE_BOARDS} of
 * those, the oldest is read into the set of seen ids, so a long run of conflicts does not keep many
 * boards alive.
 */
final class DeletedTargets {
  /** Boards read whole that are kept to be asked, rather than read into {@link #seen}. */
  static final int WHOLE_BOARDS = 8;

  private final ActionCatalog catalog;

  /** Shapes on boards held: those the run's commits put, and those of whole boards read in. */
  private final Set<String> seen = new HashSet<>();

  private final Deque<Board> wholeBoards = new ArrayDeque<>();
  private Board last;
  private final JsonArray dropped = new JsonArray();

  DeletedTargets(ActionCatalog catalog) {
    this.catalog = catalog;
  }

  /** Every board the run holds passes here: the shapes on it were there once. */
  void saw(Board board) {
    if (board == last) {
      return;
    }
    Optional<Set<String>> changed = last == null ? Optional.empty() : board.idsChangedFrom(last);
    if (changed.isPresent()) {
      // The shapes of the board before are already held; this one adds only what its diff put.
      changed.get().stream().filter(id -> board.shape(id).isPresent()).forEach(seen::add);
    } else {
      wholeBoards.addLast(board);
      if (wholeBoards.size() > WHOLE_BOARDS) {
        readIn(wholeBoards.removeFirst());
      }
    }
    last = board;
  }

  /** Whether the shape was on a board the run held. */
  boolean held(String id) {
    return seen.contains(id) || wholeBoards.stream().anyMatch(board -> board.shape(id).isPresent());
  }

  private void readIn(Board board) {
    board.records().values().stream()
        .filter(record -> "shape".equals(record.getString("typeName")))
        .forEach(record -> seen.add(record.getString("id")));
  }

  /** The shapes {@code action} names that were on a board the run held and are not on {@code board}. */
  Optional<List<String>> deleted(AgentAction action, Board board) {
    Set<String> named =
        catalog
            .entry(action.name())
            .map(
                entry ->
                    entry
                        .verb()
                        .referencedShapes(
                            action.params() == null ? new JsonObject() : action.params()))
            .orElse(Set.of());
    List<String> gone =
        named.stream()
            .filter(this::held)
            .filter(id -> board.record(id).isEmpty())
            .map(ShapeIds::modelId)
            .sorted()
            .toList();
    return gone.isEmpty() ? Optional.empty() : Optional.of(gone);
  }

  /** Records {@code action} as dropped for its deleted shapes; the reason, in the server's words. */
  String drop(AgentAction action, List<String> gone) {
    String reason =
        "its shape(s) " + gone + " were deleted from the board, so it can no longer apply";
    dropped.add(
        new JsonObject()
            .put("actionId", action.id())
            .put("name", action.name())
            .put("reason", reason));
    return reason;
  }

  /** Adds the dropped actions to the run's final status, when there are any. */
  void addTo(JsonObject summary) {
    if (!dropped.isEmpty()) {
      summary.put("targetsDeleted", dropped.copy());
    }
  }
}
