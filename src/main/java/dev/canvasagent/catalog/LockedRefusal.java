package dev.canvasagent.catalog;

import dev.canvasagent.board.ShapeIds;
import java.util.Collection;
import java.util.List;

/**
 * The words of an action refused because it would change shapes a person locked: {@code locked:},
 * then the shapes as the model knows them. The sanitizer refuses with it (ACTION_INVALID); the runner
 * recognizes it by its start and tells the model, which cannot unlock a shape and must leave it be.
 */
public final class LockedRefusal {
  public static final String PREFIX = "locked:";

  /** How many shapes the reason names; more are counted ("and 3 more"), so a reason stays short. */
  static final int NAMED = 20;

  private LockedRefusal() {}

  /** The reason for refusing an action that would change {@code recordIds}. */
  public static String reason(Collection<String> recordIds) {
    List<String> ids = recordIds.stream().map(ShapeIds::modelId).sorted().distinct().toList();
    String named = String.join(", ", ids.subList(0, Math.min(NAMED, ids.size())));
    String more = ids.size() > NAMED ? ", and " + (ids.size() - NAMED) + " more" : "";
    return PREFIX
        + " shape(s) ["
        + named
        + more
        + "] are locked by a person (or inside a locked frame or group), and no agent action"
        + " changes, moves or deletes them; leave them as they are";
  }

  /** Whether a refusal's reason is this one. */
  public static boolean isLocked(String reason) {
    return reason != null && reason.startsWith(PREFIX);
  }
}
