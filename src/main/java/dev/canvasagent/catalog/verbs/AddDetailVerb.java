package dev.canvasagent.catalog.verbs;

import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;

/** {@code add_detail}: asks for one more pass over the work, a follow-up the scheduler queues. */
public final class AddDetailVerb implements ActionVerb {
  @Override
  public String name() {
    return "add_detail";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.AGENT;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    return SanitizedAction.meta(params.copy());
  }
}
