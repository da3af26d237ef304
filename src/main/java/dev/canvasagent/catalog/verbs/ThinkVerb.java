package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonObject;

/** {@code think}: the agent tells the room what it is doing; the runner posts it on {@code agent:chat}. */
public final class ThinkVerb implements ActionVerb {
  @Override
  public String name() {
    return "think";
  }

  @Override
  public boolean isMeta() {
    return true;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, Board board) {
    return SanitizedAction.meta(new JsonObject().put("text", params.getString("text").strip()));
  }
}
