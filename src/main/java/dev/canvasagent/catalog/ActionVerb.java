package dev.canvasagent.catalog;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * One verb of the action catalog: its name, what kind of effect it has, and how params that passed
 * the verb's JSON Schema become a normalized action and a record diff. Adding a verb means one class,
 * one schema file under {@code catalog/}, and its test.
 */
public interface ActionVerb {
  String name();

  VerbKind kind();

  /**
   * Normalizes schema-valid params against the context. Throws {@link ActionRejected} when the action
   * cannot be made valid; never returns a half-valid result.
   */
  SanitizedAction sanitize(JsonObject params, ActionContext context);

  /**
   * The shape record ids the action refers to and needs on the board. While one is missing, a streamed
   * action waits for the create that names it (dependent actions are reordered); a reference still
   * missing when the stream ends drops the action.
   */
  default Set<String> referencedShapes(JsonObject params) {
    return Set.of();
  }
}
