package dev.canvasagent.runner.context;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many shapes of each tldraw type the whole board holds: the model's sense of what is off-screen.
 * The worked example of docs/extending.md, "Add a prompt part", exactly as the guide shows it;
 * {@link BoardSummaryPartTest} runs it through the gatherer and the builder.
 */
final class BoardSummaryPart implements PromptPart<Void> {
  /** Its key in the structured context. */
  static final String KEY = "boardSummary";

  @Override
  public String name() {
    return "boardSummary";
  }

  @Override
  public int priority() {
    return 95; // after the clusters, before the shape state
  }

  @Override
  public boolean memoizable() {
    return true; // the board alone: docVersion is in the memo key
  }

  @Override
  public String describedAs() {
    return "how many shapes of each type the board holds (board summary)";
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    Map<String, Integer> counts = new TreeMap<>();
    scope
        .view()
        .paintOrder()
        .forEach(shape -> counts.merge(shape.record().getString("type"), 1, Integer::sum));
    if (counts.isEmpty()) {
      return PartOutput.empty(this);
    }
    JsonObject json = new JsonObject();
    counts.forEach(json::put);
    String text = "## Board summary: shapes by type\n" + json.encode() + "\n";
    if (PartOutput.utf8Length(text) > budgetBytes) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(this, KEY, json, text, false);
  }
}
