package dev.canvasagent.runner.context;

import dev.canvasagent.bus.FollowUp;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonObject;

/**
 * Tells the model that this run is a follow-up of an earlier request — one it asked for itself
 * ({@code add_detail}, {@code review}) or one the scheduler's rules added ({@code low_actions}, {@code
 * open_todos}) — so it adds to what is on the board instead of starting the request over.
 */
final class FollowUpPart implements PromptPart<Void> {
  @Override
  public String name() {
    return "followUp";
  }

  @Override
  public int priority() {
    return 5;
  }

  @Override
  public boolean memoizable() {
    return false;
  }

  private static String why(String reason) {
    return switch (reason) {
      case "low_actions" -> "because the earlier run made few changes";
      case "open_todos" -> "because your todo list still has open items";
      default -> "asked for by you";
    };
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    FollowUp followUp = scope.inputs().followUp();
    if (followUp == null) {
      return PartOutput.empty(this);
    }
    String text =
        "## Follow-up\nThis is follow-up "
            + followUp.number()
            + " ("
            + followUp.reason()
            + ") of an earlier request, "
            + why(followUp.reason())
            + ". The board already holds what the earlier runs"
            + " drew: add only what is still missing, and answer without actions when nothing is.\n";
    if (PartOutput.utf8Length(text) > budgetBytes) {
      return PartOutput.empty(this).withTruncation();
    }
    JsonObject json =
        new JsonObject().put("number", followUp.number()).put("reason", followUp.reason());
    return PartOutput.section(this, ModelContext.FOLLOW_UP, json, text, false);
  }
}
