package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentAction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * What the batches of a run left out or changed ({@code batch_operations}' {@code result.skipped} and
 * {@code result.placedTopLevel}, each {@code {index, ref, reason}}): listed in the run's final status
 * and said, as a system line of the session's chat, to the model's next turn, so it learns which refs
 * did not work.
 */
final class BatchIssues {
  private final JsonArray skipped = new JsonArray();
  private final JsonArray placedTopLevel = new JsonArray();

  /** Takes the issues of an applied action; the chat line telling the model about them, if there are any. */
  Optional<String> take(AgentAction action) {
    JsonObject result =
        action.params() == null
            ? null
            : action.params().getValue("result") instanceof JsonObject json ? json : null;
    if (result == null) {
      return Optional.empty();
    }
    JsonArray actionSkipped = result.getJsonArray("skipped", new JsonArray());
    JsonArray actionTopLevel = result.getJsonArray("placedTopLevel", new JsonArray());
    skipped.addAll(actionSkipped);
    placedTopLevel.addAll(actionTopLevel);
    if (actionSkipped.isEmpty() && actionTopLevel.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder line = new StringBuilder(action.name()).append(':');
    describe(line, "skipped", actionSkipped);
    describe(line, "placed top-level", actionTopLevel);
    return Optional.of(line.toString());
  }

  private static void describe(StringBuilder line, String what, JsonArray issues) {
    for (Object item : issues) {
      JsonObject issue = (JsonObject) item;
      line.append(' ')
          .append(what)
          .append(" operation #")
          .append(issue.getValue("index"))
          .append(" (ref '")
          .append(issue.getValue("ref"))
          .append("'): ")
          .append(issue.getValue("reason"))
          .append('.');
    }
  }

  /** Adds the run's issues to its final status detail, when there are any. */
  void addTo(JsonObject summary) {
    if (!skipped.isEmpty()) {
      summary.put("skipped", skipped.copy());
    }
    if (!placedTopLevel.isEmpty()) {
      summary.put("placedTopLevel", placedTopLevel.copy());
    }
  }
}
