package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.catalog.verbs.VerbFixtures.arrow;
import static dev.canvasagent.catalog.verbs.VerbFixtures.binding;
import static dev.canvasagent.catalog.verbs.VerbFixtures.boardOf;
import static dev.canvasagent.catalog.verbs.VerbFixtures.child;
import static dev.canvasagent.catalog.verbs.VerbFixtures.frame;
import static dev.canvasagent.catalog.verbs.VerbFixtures.geo;
import static dev.canvasagent.catalog.verbs.VerbFixtures.note;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code delete_shape}: the shapes, everything inside them, and every binding touching them. */
class DeleteShapeVerbTest {
  /** A frame holding a geo and a nested frame with a note; an arrow bound from the geo to a box outside. */
  Board board =
      boardOf(
          frame("f1"),
          child(geo("inner", 10, 10), "shape:f1"),
          child(frame("f2"), "shape:f1"),
          child(note("deep"), "shape:f2"),
          geo("outside", 600, 0),
          geo("lonely", 900, 0),
          arrow("a1"),
          binding("start", "shape:a1", "shape:inner", "start"),
          binding("end", "shape:a1", "shape:outside", "end"));

  SanitizedAction sanitize(JsonObject params) {
    return VerbFixtures.sanitize("delete_shape", params, board);
  }

  RecordDiff delete(JsonObject params) {
    RecordDiff diff = sanitize(params).diff();
    assertEquals(List.of(), diff.put());
    assertEquals(Optional.empty(), BoardIntegrity.problem(board, diff), "the board stays sound");
    return diff;
  }

  @Test
  void aShapeWithNothingAttachedIsRemovedAlone() {
    assertEquals(
        List.of("shape:lonely"), delete(new JsonObject().put("shapeId", "lonely")).remove());
  }

  @Test
  void aFrameTakesItsDescendantsAndTheBindingsTouchingThem() {
    RecordDiff diff = delete(new JsonObject().put("shapeId", "f1"));
    assertEquals(
        Set.of("shape:f1", "shape:inner", "shape:f2", "shape:deep", "binding:start"),
        Set.copyOf(diff.remove()));
    assertEquals(diff.remove().size(), Set.copyOf(diff.remove()).size(), "no id twice");
  }

  @Test
  void aBoundTargetTakesItsBindingButNotTheArrow() {
    RecordDiff diff = delete(new JsonObject().put("shapeId", "outside"));
    assertEquals(Set.of("shape:outside", "binding:end"), Set.copyOf(diff.remove()));
  }

  @Test
  void anArrowTakesBothItsBindings() {
    RecordDiff diff = delete(new JsonObject().put("shapeId", "a1"));
    assertEquals(Set.of("shape:a1", "binding:start", "binding:end"), Set.copyOf(diff.remove()));
  }

  @Test
  void severalShapesAtOnceWithoutRepeats() {
    SanitizedAction sanitized =
        sanitize(
            new JsonObject()
                .put("shapeId", "f2")
                .put("shapeIds", new JsonArray().add("shape:f2").add("deep").add("lonely")));
    assertEquals(
        new JsonArray().add("shape:f2").add("shape:deep").add("shape:lonely"),
        sanitized.params().getJsonArray("shapeIds"));
    assertEquals(
        Set.of("shape:f2", "shape:deep", "shape:lonely"), Set.copyOf(sanitized.diff().remove()));
    assertEquals(3, sanitized.diff().remove().size());
  }

  @Test
  void theReferencedShapesAreWhatTheRunnerWaitsFor() {
    assertEquals(
        Set.of("shape:x", "shape:y"),
        VerbFixtures.entry("delete_shape")
            .verb()
            .referencedShapes(
                new JsonObject()
                    .put("shapeId", "x")
                    .put("shapeIds", new JsonArray().add("shape:y"))));
  }

  @Test
  void anUnknownShapeRejectsTheWholeAction() {
    ActionRejected rejected =
        assertThrows(
            ActionRejected.class,
            () ->
                sanitize(
                    new JsonObject().put("shapeIds", new JsonArray().add("lonely").add("ghost"))));
    assertTrue(rejected.getMessage().contains("ghost"), rejected.getMessage());
  }

  @Test
  void anIdThatNamesNoShapeIsRejectedRatherThanDeletingNothing() {
    assertThrows(ActionRejected.class, () -> sanitize(new JsonObject().put("shapeId", "shape:")));
    assertThrows(
        ActionRejected.class,
        () -> sanitize(new JsonObject().put("shapeIds", new JsonArray().add("shape:"))));
  }

  @Test
  void theSchemaWantsAShapeIdOrShapeIds() {
    assertTrue(VerbFixtures.violations("delete_shape", new JsonObject()).isPresent());
    assertTrue(
        VerbFixtures.violations("delete_shape", new JsonObject().put("shapeIds", new JsonArray()))
            .isPresent());
    assertTrue(
        VerbFixtures.violations("delete_shape", new JsonObject().put("shapeId", "a b"))
            .isPresent());
    assertTrue(
        VerbFixtures.violations(
                "delete_shape", new JsonObject().put("shapeId", "x").put("all", true))
            .isPresent());
  }
}
