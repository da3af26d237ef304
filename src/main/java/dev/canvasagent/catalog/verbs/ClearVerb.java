package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** {@code clear} (starter kit): removes every shape and binding from the board. */
public final class ClearVerb implements ActionVerb {
  @Override
  public String name() {
    return "clear";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    List<String> removed =
        context.board().records().values().stream()
            .filter(record -> List.of("shape", "binding").contains(record.getString("typeName")))
            .map(record -> record.getString("id"))
            .toList();
    if (removed.isEmpty()) {
      throw new ActionRejected("the board is already empty");
    }
    return new SanitizedAction(new JsonObject(), new RecordDiff(List.of(), removed));
  }
}
