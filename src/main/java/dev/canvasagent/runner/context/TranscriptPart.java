package dev.canvasagent.runner.context;

import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.TranscriptStore.Utterance;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * What was said in the room in the transcript window ({@code context.transcriptWindowMs}, 0: none),
 * at most {@link #MAX_UTTERANCES}, oldest first; a short budget keeps the newest.
 */
final class TranscriptPart implements PromptPart<List<Utterance>> {
  static final int MAX_UTTERANCES = 200;

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
  public String describedAs() {
    return "what was said lately (transcript)";
  }

  @Override
  public Future<List<Utterance>> gather(ContextSources sources, RunRequest request) {
    long window = sources.config().transcriptWindowMs();
    if (window == 0) {
      return Future.succeededFuture(List.of());
    }
    return sources
        .store()
        .transcripts()
        .since(request.roomId(), sources.clock().getAsLong() - window, MAX_UTTERANCES);
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<Utterance> utterances = scope.gathered(this);
    if (utterances == null || utterances.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<Utterance> list =
        BudgetedList.of(
            "Transcript: what was said lately {speaker, text, ts}",
            utterances,
            utterance -> utterance.toJson().encode(),
            budgetBytes,
            BudgetedList.Keep.LAST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    JsonArray json = new JsonArray(list.kept().stream().map(Utterance::toJson).toList());
    return PartOutput.section(this, ModelContext.TRANSCRIPT, json, list.text(), list.truncated());
  }
}
