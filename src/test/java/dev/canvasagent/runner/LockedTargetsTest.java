package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.LockedRefusal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Actions dropped for locked shapes, listed in the final status. */
class LockedTargetsTest {
  static AgentAction move(String id) {
    return new AgentAction(
        "run:" + id, "move", new JsonObject().put("shapeIds", new JsonArray().add(id)));
  }

  @Test
  void aLockedRefusalIsListedInTheFinalStatus() {
    LockedTargets locked = new LockedTargets();
    String reason = LockedRefusal.reason(List.of("shape:title"));

    locked.take(move("title"), reason);

    JsonObject summary = new JsonObject();
    locked.addTo(summary);
    assertEquals(
        new JsonArray()
            .add(
                new JsonObject()
                    .put("actionId", "run:title")
                    .put("name", "move")
                    .put("reason", reason)),
        summary.getJsonArray("locked"));
    assertTrue(reason.startsWith("locked: shape(s) [title] are locked"), reason);
  }

  @Test
  void otherRefusalsAreNotListed() {
    LockedTargets locked = new LockedTargets();
    locked.take(move("b"), "params do not match the move schema: dx");
    JsonObject summary = new JsonObject();
    locked.addTo(summary);
    assertEquals(new JsonObject(), summary, "no empty list in the final status");
  }

  @Test
  void aLongListOfLockedShapesIsCountedRatherThanNamed() {
    List<String> many =
        java.util.stream.IntStream.range(0, 25).mapToObj(i -> "shape:s" + (10 + i)).toList();
    String reason = LockedRefusal.reason(many);
    assertTrue(reason.contains("s29, and 5 more]"), reason);
  }
}
