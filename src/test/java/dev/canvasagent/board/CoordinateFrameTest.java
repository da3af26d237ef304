package dev.canvasagent.board;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model's world: offset by the session origin, rounded, with the rounding restored on the way back. */
class CoordinateFrameTest {
  final CoordinateFrame frame = new CoordinateFrame(1000, -500, Map.of());

  @Test
  void atTheOriginNothingIsOffset() {
    CoordinateFrame origin = CoordinateFrame.atOrigin();
    assertEquals(0.0, origin.originX());
    assertEquals(0.0, origin.originY());
    assertEquals(42, origin.toModel(null, "x", 42));
    assertEquals(42.0, origin.toPage(null, "y", 42));
  }

  @Test
  void toModelSubtractsTheOriginAndRounds() {
    assertEquals(250, frame.toModel(null, "x", 1250));
    assertEquals(-250, frame.toModel(null, "y", -750));
    assertEquals(251, frame.toModel(null, "x", 1250.6));
    assertEquals(-250, frame.toModel(null, "y", -750.4));
  }

  @Test
  void toPageAddsTheOriginBack() {
    assertEquals(1250.0, frame.toPage(null, "x", 250));
    assertEquals(-750.0, frame.toPage(null, "y", -250));
  }

  @Test
  void propertiesOtherThanXAndYHaveNoOffset() {
    assertEquals(120, frame.toModel(null, "w", 120.2));
    assertEquals(120.0, frame.toPage(null, "w", 120));
    assertEquals(120.0, frame.toPage(null, "rotation", 120));
  }

  @Test
  void theRoundingOfAShapesValueIsRestoredForTheSameShapeAndProperty() {
    long modelX = frame.toModel("shape:a", "x", 1250.375);
    long modelY = frame.toModel("shape:a", "y", -750.25);
    assertEquals(250, modelX);
    assertEquals(-250, modelY);

    assertEquals(1250.375, frame.toPage("shape:a", "x", modelX));
    assertEquals(-750.25, frame.toPage("shape:a", "y", modelY));
    assertEquals(
        1260.375, frame.toPage("shape:a", "x", modelX + 10), "a move keeps the fraction: no drift");
  }

  @Test
  void theRoundingIsNotAppliedToOtherShapesOrProperties() {
    long modelX = frame.toModel("shape:a", "x", 1250.375);

    assertEquals(1250.0, frame.toPage("shape:b", "x", modelX), "another shape");
    assertEquals(
        250.0 - 500, frame.toPage("shape:a", "y", modelX), "another property of the same shape");
    assertEquals(1250.0, frame.toPage(null, "x", modelX), "no shape");
  }

  @Test
  void aValueThatRoundsExactlyForgetsAnEarlierRounding() {
    frame.toModel("shape:a", "x", 1250.375);
    frame.toModel("shape:a", "x", 1300);

    assertEquals(1300.0, frame.toPage("shape:a", "x", 300));
  }

  @Test
  void toModelWithoutAShapeRemembersNothing() {
    frame.toModel(null, "x", 1250.375);
    assertEquals(1250.0, frame.toPage(null, "x", 250));
    assertEquals(1250.0, frame.toPage("shape:a", "x", 250));
  }

  @Test
  void toPageLengthRestoresTheRoundingWithoutAnyOffset() {
    long w = frame.toModel("shape:a", "w", 120.25);
    assertEquals(120, w);

    assertEquals(120.25, frame.toPageLength("shape:a", "w", w));
    assertEquals(120.0, frame.toPageLength("shape:b", "w", w));
    assertEquals(120.0, frame.toPageLength(null, "w", w));
    assertEquals(
        80.0, frame.toPageLength(null, "x", 80), "a length along x is not offset by the origin");
    assertEquals(80.0, frame.toPageLength("shape:a", "y", 80));
  }

  @Test
  void theFrameSurvivesAJsonRoundTrip() {
    frame.toModel("shape:a", "x", 1250.375);
    frame.toModel("shape:b", "w", 99.5);
    JsonObject json = frame.toJson();

    CoordinateFrame back = CoordinateFrame.fromJson(new JsonObject(json.encode()));

    assertEquals(1000.0, back.originX());
    assertEquals(-500.0, back.originY());
    assertEquals(1250.375, back.toPage("shape:a", "x", 250));
    assertEquals(99.5, back.toPageLength("shape:b", "w", 100), "99.5 rounds half up to 100");
    assertEquals(json, back.toJson());
  }

  @Test
  void noJsonIsTheOrigin() {
    CoordinateFrame none = CoordinateFrame.fromJson(null);
    assertEquals(0.0, none.originX());
    assertEquals(0.0, none.originY());
    CoordinateFrame empty = CoordinateFrame.fromJson(new JsonObject());
    assertEquals(0.0, empty.originX());
    assertEquals(5.0, empty.toPage("shape:a", "x", 5));
  }

  @Test
  void theFrameCopiesTheRoundingItIsGiven() {
    Map<String, Double> rounding = new java.util.HashMap<>(Map.of("shape:a_x", 0.25));
    CoordinateFrame copy = new CoordinateFrame(0, 0, rounding);
    rounding.clear();
    assertEquals(10.25, copy.toPage("shape:a", "x", 10));
  }
}
