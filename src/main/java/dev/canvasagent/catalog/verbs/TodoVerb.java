package dev.canvasagent.catalog.verbs;

import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;

/** {@code todo}: adds, updates or resolves an item of the session's todo list; the scheduler owns the list. */
public final class TodoVerb implements ActionVerb {
  @Override
  public String name() {
    return "todo";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.AGENT;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    JsonObject normalized = params.copy();
    if (normalized.getString("text") != null) {
      normalized.put("text", normalized.getString("text").strip());
    }
    return SanitizedAction.meta(normalized);
  }
}
