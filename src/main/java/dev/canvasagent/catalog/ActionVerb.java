package dev.canvasagent.catalog;

import dev.canvasagent.board.Board;
import io.vertx.core.json.JsonObject;

/**
 * One verb of the action catalog: its name, whether it only talks (meta) or changes the board, and
 * how params that passed the verb's JSON Schema become a normalized action and a record diff.
 * Adding a verb means one class, one schema file under {@code catalog/}, and its test.
 */
public interface ActionVerb {
  String name();

  /** Meta verbs ({@code think}, {@code todo}, {@code add_detail}) never change board records. */
  boolean isMeta();

  /**
   * Normalizes schema-valid params against the board. Throws {@link ActionRejected} when the action
   * cannot be made valid; never returns a half-valid result.
   */
  SanitizedAction sanitize(JsonObject params, Board board);
}
