package dev.canvasagent.runner.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.model.ModelEvent;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The model stream read as actions and previews, with the ids clients rely on. */
class ActionStreamTest {
  static final ActionCatalog CATALOG = ActionCatalog.standard();

  final List<AgentAction> actions = new ArrayList<>();
  final List<String> previews = new ArrayList<>();
  final List<String> problems = new ArrayList<>();
  boolean goOn = true;

  ActionStream stream(long partialIntervalMs) {
    return new ActionStream(
        "run-1",
        CATALOG,
        new PartialGate(partialIntervalMs, () -> 0L),
        new ActionStream.Listener() {
          @Override
          public boolean action(AgentAction action) {
            actions.add(action);
            return goOn;
          }

          @Override
          public void preview(String actionId, String verb, JsonObject params) {
            previews.add(actionId + " " + verb + " " + params.encode());
          }

          @Override
          public void unreadable(String problem) {
            problems.add(problem);
          }
        });
  }

  @Test
  void aToolCallIsPreviewedWhileWrittenThenGivenWholeWithItsOrdinalId() {
    ActionStream stream = stream(1);
    stream.toolCallStart(new ModelEvent.ToolCallStart(0, "c0", "create_shape"));
    stream.toolCallDelta(
        new ModelEvent.ToolCallDelta(0, "c0", "{\"type\":\"rectangle\",\"text\":\"Hel"));
    JsonObject arguments = new JsonObject().put("type", "rectangle").put("text", "Hello");
    stream.toolCallEnd(new ModelEvent.ToolCallEnd(0, "c0", "create_shape", arguments));

    assertEquals(
        List.of("run-1:0 create_shape {\"type\":\"rectangle\",\"text\":\"Hel\"}"), previews);
    assertEquals(List.of(new AgentAction("run-1:0", "create_shape", arguments)), actions);
    assertFalse(stream.isOpen("run-1:0"), "no preview once complete");
  }

  @Test
  void chatVerbsAndDisabledPartialsAreNeverPreviewed() {
    ActionStream withoutPartials = stream(0);
    withoutPartials.toolCallStart(new ModelEvent.ToolCallStart(0, "c0", "create_shape"));
    withoutPartials.toolCallDelta(new ModelEvent.ToolCallDelta(0, "c0", "{\"type\":\"rectangle\""));
    ActionStream stream = stream(1);
    stream.toolCallStart(new ModelEvent.ToolCallStart(1, "c1", "think"));
    stream.toolCallDelta(new ModelEvent.ToolCallDelta(1, "c1", "{\"text\":\"hmm"));

    assertEquals(List.of(), previews);
  }

  @Test
  void textActionsGetTheirIndexIdsAndTheProseGoesToTheChat() {
    ActionStream stream = stream(0);
    stream.text(
        new ModelEvent.TextDelta(
            "Here.\n{\"actions\":[{\"name\":\"think\",\"params\":{\"text\":\"a\"}},"));
    stream.text(new ModelEvent.TextDelta("{\"name\":\"think\",\"params\":{\"text\":\"b\"}}]}"));

    assertEquals(List.of("run-1:t0", "run-1:t1"), actions.stream().map(AgentAction::id).toList());
    assertEquals(Optional.empty(), stream.finish());
    assertEquals("Here.", stream.prose().strip());
  }

  @Test
  void aListenerThatStopsTakingActionsGetsNoMoreFromTheSameChunk() {
    ActionStream stream = stream(0);
    goOn = false;
    stream.text(
        new ModelEvent.TextDelta(
            "[{\"name\":\"think\",\"params\":{\"text\":\"a\"}},{\"name\":\"think\",\"params\":{\"text\":\"b\"}}]"));

    assertEquals(1, actions.size());
  }

  @Test
  void unreadableTextIsReportedOnceAndNothingAfterItIsTaken() {
    ActionStream stream = stream(0);
    stream.text(
        new ModelEvent.TextDelta(
            "{\"actions\":[{\"name\":\"think\",\"params\":{\"text\":\"a\"}},,"));

    assertEquals(1, actions.size());
    assertEquals(1, problems.size());
    assertTrue(problems.get(0).contains("invalid JSON"), problems.get(0));
  }
}
