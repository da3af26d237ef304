package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.bus.AgentAction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A batch's skipped operations, told back: they reach the run's final status and the model's next
 * turn, by ref.
 */
class BatchIssuesTest {
  static AgentAction batch(JsonArray skipped, JsonArray placedTopLevel) {
    return new AgentAction(
        "a1",
        "batch_operations",
        new JsonObject()
            .put("operations", new JsonArray())
            .put(
                "result",
                new JsonObject().put("skipped", skipped).put("placedTopLevel", placedTopLevel)));
  }

  static JsonObject issue(int index, String ref, String reason) {
    return new JsonObject().put("index", index).put("ref", ref).put("reason", reason);
  }

  @Test
  void aBatchWithSkipsGivesAChatLineNamingEachRefAndTheSummaryListsThem() {
    BatchIssues issues = new BatchIssues();
    Optional<String> line =
        issues.take(
            batch(
                new JsonArray().add(issue(3, "note_a", "duplicate ref 'note_a'")),
                new JsonArray()
                    .add(
                        issue(
                            4,
                            "note_b",
                            "parentRef 'frame_x' names no object before it; placed top-level"))));
    assertEquals(
        Optional.of(
            "batch_operations: skipped operation #3 (ref 'note_a'): duplicate ref 'note_a'."
                + " placed top-level operation #4 (ref 'note_b'): parentRef 'frame_x' names no object before it; placed top-level."),
        line);
    issues.take(
        batch(
            new JsonArray().add(issue(0, "conn_a", "fromRef 'x' names no object before it")),
            new JsonArray()));
    JsonObject summary = new JsonObject();
    issues.addTo(summary);
    assertEquals(2, summary.getJsonArray("skipped").size());
    assertEquals(
        "note_b", summary.getJsonArray("placedTopLevel").getJsonObject(0).getString("ref"));
  }

  @Test
  void actionsWithoutIssuesSayNothing() {
    BatchIssues issues = new BatchIssues();
    assertEquals(Optional.empty(), issues.take(batch(new JsonArray(), new JsonArray())));
    assertEquals(
        Optional.empty(),
        issues.take(new AgentAction("a2", "create_shape", new JsonObject().put("type", "box"))));
    JsonObject summary = new JsonObject();
    issues.addTo(summary);
    assertEquals(new JsonObject(), summary, "no empty lists in the final status");
  }
}
