package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * {@code set_viewport}: where the host client's camera should look. It changes no records; clients
 * get it as an envelope and only the host pans and zooms.
 */
public final class SetViewportVerb implements ActionVerb {
  @Override
  public String name() {
    return "set_viewport";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.CLIENT;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    JsonObject page =
        new JsonObject()
            .put(
                "x",
                VerbRanges.coordinate(context.frame().toPage(null, "x", params.getDouble("x"))))
            .put(
                "y",
                VerbRanges.coordinate(context.frame().toPage(null, "y", params.getDouble("y"))))
            .put("w", VerbRanges.size(params.getDouble("w")))
            .put("h", VerbRanges.size(params.getDouble("h")));
    return new SanitizedAction(page, new RecordDiff(List.of(), List.of()));
  }
}
