package dev.canvasagent.catalog.verbs;

import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;

/** {@code think}: the agent tells the room what it is doing; the runner posts it on {@code agent:chat}. */
public final class ThinkVerb implements ActionVerb {
  @Override
  public String name() {
    return "think";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.CHAT;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    return SanitizedAction.meta(new JsonObject().put("text", params.getString("text").strip()));
  }
}
