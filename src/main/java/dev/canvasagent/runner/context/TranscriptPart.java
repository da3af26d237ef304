package dev.canvasagent.runner.context;

import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.TranscriptStore.Utterance;
import io.vertx.core.json.JsonArray;
import java.util.List;

/** What was said in the room in the transcript window, oldest first; a short budget keeps the newest. */
final class TranscriptPart implements PromptPart {
  @Override
  public String name() {
    return "transcript";
  }

  @Override
  public int priority() {
    return 60;
  }

  @Override
  public boolean memoizable() {
    return true;
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<Utterance> utterances = scope.inputs().transcript();
    if (utterances.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<Utterance> list = BudgetedList.of("Transcript: what was said lately {speaker, text, ts}", utterances,
        utterance -> utterance.toJson().encode(), budgetBytes, BudgetedList.Keep.LAST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    JsonArray json = new JsonArray(list.kept().stream().map(Utterance::toJson).toList());
    return PartOutput.section(this, ModelContext.TRANSCRIPT, json, list.text(), list.truncated());
  }
}
