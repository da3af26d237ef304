package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.bus.ActionOutcome.Adjustment;
import dev.canvasagent.bus.ActionOutcome.DroppedPart;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an outside caller is told of the params the sanitizer applied in place of its own. */
class AppliedParamsTest {
  @Test
  void onlyValuesGivenAndAppliedDifferentlyAreAdjusted() {
    JsonObject given =
        new JsonObject()
            .put("x", 100)
            .put("props", new JsonObject().put("color", "purple").put("w", 50))
            .put("shapeIds", new JsonArray().add("a").add("shape:b"))
            .put("a/b~c", "odd key")
            .put("dropped", true);
    JsonObject applied =
        new JsonObject()
            .put("x", 100.0)
            .put("props", new JsonObject().put("color", "violet").put("w", 50))
            .put("shapeIds", new JsonArray().add("shape:a").add("shape:b"))
            .put("a/b~c", "odd key, changed")
            .put("result", new JsonObject().put("added", "by the sanitizer"));
    assertEquals(
        List.of(
            new Adjustment("/props/color", "purple", "violet"),
            new Adjustment("/shapeIds/0", "a", "shape:a"),
            new Adjustment("/a~1b~0c", "odd key", "odd key, changed"),
            new Adjustment("/dropped", true, null)),
        AppliedParams.adjusted(given, applied));
  }

  @Test
  void anArrayOfAnotherLengthIsAdjustedWhole() {
    JsonObject given = new JsonObject().put("points", new JsonArray().add(1).add(2).add(3));
    JsonObject applied = new JsonObject().put("points", new JsonArray().add(1).add(2));
    assertEquals(
        List.of(new Adjustment("/points", given.getValue("points"), applied.getValue("points"))),
        AppliedParams.adjusted(given, applied));
  }

  @Test
  void aBatchsSkippedAndTopLevelOperationsAreDropped() {
    JsonObject applied =
        new JsonObject()
            .put(
                "result",
                new JsonObject()
                    .put(
                        "skipped",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("index", 1)
                                    .put("ref", "note_a")
                                    .put("reason", "duplicate ref 'note_a'")))
                    .put(
                        "placedTopLevel",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("index", 2)
                                    .put("ref", "note_b")
                                    .put("reason", "no frame 'f'"))));
    assertEquals(
        List.of(
            new DroppedPart(
                "/operations/1",
                AppliedParams.OPERATION_SKIPPED,
                "ref 'note_a': duplicate ref 'note_a'"),
            new DroppedPart(
                "/operations/2/parentRef",
                AppliedParams.PARENT_DROPPED,
                "ref 'note_b': no frame 'f'")),
        AppliedParams.dropped(applied));
    assertEquals(List.of(), AppliedParams.dropped(new JsonObject().put("x", 1)));
  }
}
