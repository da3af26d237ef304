package dev.canvasagent.runner;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;

/**
 * What became of a run's actions: the counts its final status reports, and the work the scheduler's
 * low-action rule weighs. A {@code batch_operations} that built a 30-shape SWOT is thirty shapes of
 * work, not one action, so it counts as the number of shapes it created or changed.
 */
final class ActionTally {
  private static final String BATCH_VERB = "batch_operations";

  private final RunMetrics metrics;
  private int applied;
  private int work;
  private int dropped;
  private int deduped;

  /** Of {@link #applied}, the board actions that would have changed nothing, so committed nothing. */
  private int unchanged;

  ActionTally(RunMetrics metrics) {
    this.metrics = metrics;
  }

  /** An applied action that committed no diff: chat, a client or agent action, an unchanged board. */
  void applied(VerbKind kind) {
    countApplied();
    if (kind != VerbKind.CHAT) {
      work++;
    }
  }

  /** A board action whose diff was committed. */
  void committed(AgentAction action, RecordDiff diff) {
    countApplied();
    work += BATCH_VERB.equals(action.name()) ? Math.max(1, shapesTouched(diff)) : 1;
  }

  void unchangedBoard() {
    applied(VerbKind.BOARD);
    unchanged++;
  }

  void drop() {
    dropped++;
  }

  /** A create that would have duplicated a shape: dropped, and counted apart too. */
  void dedupe() {
    deduped++;
    dropped++;
  }

  private static int shapesTouched(RecordDiff diff) {
    return (int)
        diff.put().stream()
            .filter(record -> record.getString("id", "").startsWith("shape:"))
            .count();
  }

  private void countApplied() {
    applied++;
    metrics.applied();
  }

  int applied() {
    return applied;
  }

  /**
   * What the low-action rule counts: applied actions beside chat, a committed batch counting as the
   * shapes it created or changed.
   */
  int work() {
    return work;
  }

  int dropped() {
    return dropped;
  }

  int deduped() {
    return deduped;
  }

  void addTo(JsonObject summary) {
    if (unchanged > 0) {
      summary.put("unchanged", unchanged);
    }
  }
}
