package dev.canvasagent.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.ActionOutcome.Adjustment;
import dev.canvasagent.bus.ActionOutcome.DroppedPart;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@code runner.act}'s messages: each reads back from its JSON as it was, and a request without a key
 * it needs, or with one of the wrong type, is refused INVALID_REQUEST naming the key.
 */
class OutsideActionMessagesTest {
  static final AgentAction ACTION =
      new AgentAction("mcp:1", "create_shape", new JsonObject().put("type", "rectangle"));

  @Test
  void anOutsideActionReadsBackWithItsActor() {
    OutsideAction byAgent = new OutsideAction("r1", "s1", ACTION, Actor.agent("alice", "s1"));
    assertEquals(byAgent, OutsideAction.fromJson(byAgent.toJson()));
    assertEquals(
        Set.of("roomId", "sessionId", "action", "subject", "agentSession"),
        byAgent.toJson().fieldNames());
    OutsideAction byPerson = new OutsideAction("r1", "s1", ACTION, Actor.person("alice"));
    assertEquals(byPerson, OutsideAction.fromJson(byPerson.toJson()));
    OutsideAction noParams =
        new OutsideAction(
            "r1", "s1", new AgentAction("mcp:2", "clear", null), Actor.person("alice"));
    assertEquals(noParams, OutsideAction.fromJson(noParams.toJson()));
  }

  @Test
  void anOutsideActionWithoutWhatItNeedsIsRefusedNamingIt() {
    JsonObject whole = new OutsideAction("r1", "s1", ACTION, Actor.agent("alice", "s1")).toJson();
    refused(whole, json -> json.remove("roomId"), "roomId");
    refused(whole, json -> json.put("sessionId", " "), "sessionId");
    refused(whole, json -> json.remove("action"), "action");
    refused(whole, json -> json.getJsonObject("action").remove("id"), "id");
    refused(whole, json -> json.getJsonObject("action").put("name", 3), "name");
    refused(whole, json -> json.getJsonObject("action").put("params", "x"), "params");
    refused(whole, json -> json.remove("subject"), "subject");
  }

  static void refused(JsonObject whole, Consumer<JsonObject> spoil, String key) {
    JsonObject json = whole.copy();
    spoil.accept(json);
    Failure failure = assertThrows(Failure.class, () -> OutsideAction.fromJson(json));
    assertEquals(FailureCode.INVALID_REQUEST, failure.code());
    assertTrue(failure.getMessage().contains(key), failure.getMessage());
  }

  @Test
  void anOutcomeReadsBackWithItsIdsAdjustmentsAndDroppedParts() {
    ActionOutcome outcome =
        new ActionOutcome(
            "mcp:1",
            "batch_operations",
            7,
            true,
            List.of("shape:a"),
            List.of("shape:b"),
            List.of("shape:c"),
            List.of(
                new Adjustment("/operations/0/color", "purple", "violet"),
                new Adjustment("/scaleX", 1000, 100.0),
                new Adjustment("/gone", new JsonArray().add(1), null)),
            List.of(
                new DroppedPart("/operations/1", "OPERATION_SKIPPED", "duplicate ref"),
                new DroppedPart(null, "OTHER", "no path")),
            new JsonObject().put("operations", new JsonArray()));
    assertEquals(outcome, ActionOutcome.fromJson(outcome.toJson()));
    assertEquals(
        Set.of(
            "actionId",
            "verb",
            "revision",
            "changed",
            "created",
            "updated",
            "removed",
            "adjusted",
            "dropped",
            "params"),
        outcome.toJson().fieldNames());
    assertEquals(
        Set.of("code", "reason"),
        outcome.toJson().getJsonArray("dropped").getJsonObject(1).fieldNames(),
        "a part without a path has no path key");
    Failure failure =
        assertThrows(
            Failure.class,
            () -> ActionOutcome.fromJson(outcome.toJson().put("created", new JsonArray().add(1))));
    assertEquals(FailureCode.INVALID_REQUEST, failure.code());
    assertTrue(failure.getMessage().contains("created"), failure.getMessage());
  }
}
