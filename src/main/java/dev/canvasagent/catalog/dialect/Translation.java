package dev.canvasagent.catalog.dialect;

import io.vertx.core.json.JsonObject;

/** What {@link VerbDialects} made of one action's name and params. */
public sealed interface Translation {
  /** Our own verb as it was given, or a name of no dialect (the sanitizer drops it as unknown). */
  record AsGiven(String name, JsonObject params) implements Translation {}

  /** Another dialect's action, now in our verb {@code alias.verb()} with {@code params}. */
  record Translated(VerbAlias alias, String original, JsonObject params) implements Translation {}

  /** Another dialect's action that means what our verbs cannot do, and why. */
  record Unmappable(VerbAlias alias, String original, String reason) implements Translation {}
}
