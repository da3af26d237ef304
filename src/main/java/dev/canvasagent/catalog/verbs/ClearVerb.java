package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeLocks;
import dev.canvasagent.board.geometry.ShapeTree;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.LockedRefusal;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code clear} (starter kit): removes every shape and binding from the board, except what a person
 * locked. As tldraw's select-all and delete, a locked shape stays, and so does everything inside it; so
 * do the frames and groups a locked shape sits in (tldraw would delete those, and the locked shape with
 * them, which no agent action may), though their other contents go. A binding goes with either of its
 * ends.
 */
public final class ClearVerb implements ActionVerb {
  @Override
  public String name() {
    return "clear";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    Board board = context.board();
    Set<String> kept = keptShapes(board);
    List<String> removed = new ArrayList<>();
    boolean anyShape = false;
    for (JsonObject record : board.records().values()) {
      String id = record.getString("id");
      if ("shape".equals(record.getString("typeName"))) {
        anyShape = true;
        if (!kept.contains(id)) {
          removed.add(id);
        }
      }
    }
    for (JsonObject record : board.records().values()) {
      if ("binding".equals(record.getString("typeName"))
          && !(kept.contains(record.getString("fromId"))
              && kept.contains(record.getString("toId")))) {
        removed.add(record.getString("id"));
      }
    }
    if (removed.isEmpty()) {
      if (!anyShape) {
        throw new ActionRejected("the board is already empty");
      }
      List<String> locked =
          kept.stream()
              .filter(id -> board.record(id).filter(ShapeLocks::isLocked).isPresent())
              .toList();
      throw new ActionRejected(LockedRefusal.reason(locked) + "; nothing else is left to clear");
    }
    return new SanitizedAction(new JsonObject(), new RecordDiff(List.of(), removed));
  }

  /** The shapes a lock holds, and the frames and groups they sit in. */
  private static Set<String> keptShapes(Board board) {
    ShapeLocks locks = new ShapeLocks(board);
    ShapeTree tree = new ShapeTree(board);
    Set<String> kept = new HashSet<>();
    for (JsonObject record : board.records().values()) {
      String id = record.getString("id");
      if ("shape".equals(record.getString("typeName")) && locks.holds(id)) {
        kept.add(id);
        kept.addAll(tree.ancestors(id).orElse(List.of()));
      }
    }
    return kept;
  }
}
