package dev.canvasagent.catalog.verbs;

import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;

/**
 * {@code review} (starter kit): the agent asks to look again at a region of the board, with a fresh
 * screenshot of those bounds, in a follow-up the scheduler queues.
 */
public final class ReviewVerb implements ActionVerb {
  @Override
  public String name() {
    return "review";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.AGENT;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    JsonObject bounds =
        new JsonObject()
            .put(
                "x",
                VerbRanges.coordinate(context.frame().toPage(null, "x", params.getDouble("x"))))
            .put(
                "y",
                VerbRanges.coordinate(context.frame().toPage(null, "y", params.getDouble("y"))))
            .put("w", VerbRanges.size(params.getDouble("w")))
            .put("h", VerbRanges.size(params.getDouble("h")));
    JsonObject normalized = new JsonObject().put("bounds", bounds);
    if (params.getString("note") != null) {
      normalized.put("note", params.getString("note").strip());
    }
    return SanitizedAction.meta(normalized);
  }
}
