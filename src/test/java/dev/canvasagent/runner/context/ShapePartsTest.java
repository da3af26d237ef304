package dev.canvasagent.runner.context;

import static dev.canvasagent.support.TestShapes.arrow;
import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.rotated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.RichText;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts that read the board: viewport, blurry shapes, clusters, selection, selected shapes, shape state. */
class ShapePartsTest {

  @Test
  void theViewportIsOffsetToTheSessionOriginAndRounded() {
    PartScope scope = new Inputs().origin(100.4, 50).viewport(300.2, 49.6, 800.6, 600).scope();

    PartOutput output = new ViewportPart().render(scope, 256);

    assertEquals(
        new JsonObject().put("x", 200L).put("y", 0L).put("w", 801L).put("h", 600L), output.json());
    assertEquals(ModelContext.VIEWPORT, output.contextKey());
    assertTrue(output.text().contains("{\"x\":200,\"y\":0,\"w\":801,\"h\":600}"), output.text());
  }

  @Test
  void noViewportNoSection() {
    assertTrue(new ViewportPart().render(new Inputs().scope(), 256).isEmpty());
  }

  @Test
  void blurryShapesAreThoseFullyInsideTheViewportBackToFrontOffsetAndRounded() {
    JsonObject front = at("a3", geo("front", 110.6, 60.2, 100.4, 50));
    front.getJsonObject("props").put("geo", "ellipse").put("richText", RichText.of("Hello"));
    PartScope scope =
        new Inputs()
            .board(
                board(
                    front,
                    at("a1", geo("back", 120, 70, 10, 10)),
                    geo("halfOut", 850, 100, 100, 10),
                    geo("far", 5000, 5000, 10, 10)))
            .origin(100, 50)
            .viewport(100, 50, 800, 600)
            .scope();

    PartOutput output = new BlurryShapesPart().render(scope, 49_152);

    JsonArray shapes = (JsonArray) output.json();
    assertEquals(List.of("back", "front"), ids(shapes), "fully inside only, back to front");
    assertEquals(
        new JsonObject()
            .put("id", "front")
            .put("type", "ellipse")
            .put("x", 11L)
            .put("y", 10L)
            .put("w", 100L)
            .put("h", 50L)
            .put("text", "Hello"),
        shapes.getJsonObject(1));
    assertEquals(new JsonObject().put("shapes", 4).put("inView", 2).put("sent", 2), output.stats());
    assertFalse(output.truncated());
    assertEquals(
        110.6,
        scope.frame().toPage("shape:front", "x", 11),
        1e-9,
        "the frame remembers the rounding for the sanitizer");
    assertEquals(100.4, scope.frame().toPageLength("shape:front", "w", 100), 1e-9);
  }

  @Test
  void withoutAViewportEveryShapeIsInView() {
    PartScope scope =
        new Inputs().board(board(geo("a", 0, 0, 10, 10), geo("b", 9000, 9000, 10, 10))).scope();

    assertEquals(2, ((JsonArray) new BlurryShapesPart().render(scope, 49_152).json()).size());
    assertTrue(new PeripheralClustersPart().render(scope, 4096).isEmpty());
  }

  @Test
  void atMost300BlurryShapesGoTheFrontmost() {
    List<JsonObject> records = new ArrayList<>();
    for (int i = 0; i < 350; i++) {
      records.add(at(String.format("a%04d", i), geo("s" + i, i, i, 5, 5)));
    }
    PartScope scope = new Inputs().board(board(records)).viewport(0, 0, 1000, 1000).scope();

    PartOutput output = new BlurryShapesPart().render(scope, 1_000_000);

    JsonArray shapes = (JsonArray) output.json();
    assertEquals(BlurryShapesPart.MAX_SHAPES, shapes.size());
    assertEquals("s50", shapes.getJsonObject(0).getString("id"));
    assertEquals("s349", shapes.getJsonObject(299).getString("id"), "the topmost is last");
    assertTrue(output.truncated());
    assertEquals(350, output.stats().getInteger("inView"));
    assertEquals(300, output.stats().getInteger("sent"));
  }

  @Test
  void aShortBudgetKeepsTheFrontmostBlurryShapesThatFit() {
    List<JsonObject> records = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      records.add(at(String.format("a%04d", i), geo("s" + i, i, i, 5, 5)));
    }
    PartScope scope = new Inputs().board(board(records)).viewport(0, 0, 1000, 1000).scope();

    PartOutput output = new BlurryShapesPart().render(scope, 400);

    JsonArray shapes = (JsonArray) output.json();
    assertTrue(shapes.size() > 0 && shapes.size() < 20, "some but not all: " + shapes.size());
    assertEquals("s19", shapes.getJsonObject(shapes.size() - 1).getString("id"));
    assertTrue(output.bytes() <= 400, "within budget: " + output.bytes());
    assertTrue(output.truncated());
  }

  @Test
  void aBudgetTooSmallForOneShapeLeavesNoKeyAndSaysItWasCut() {
    PartScope scope = new Inputs().board(board(geo("a", 0, 0, 10, 10))).scope();

    PartOutput output = new BlurryShapesPart().render(scope, 10);

    assertNull(output.json());
    assertTrue(output.truncated());
  }

  @Test
  void offScreenShapesClusterByViewportSizedGridCellsBiggestFirst() {
    PartScope scope =
        new Inputs()
            .board(
                board(
                    geo("inside", 10, 10, 10, 10),
                    geo("right1", 1010, 10, 10, 10),
                    geo("right2", 1100, 300, 50, 20),
                    geo("right3", 1500, 700, 10, 10),
                    geo("below", 10, 2010, 30, 30),
                    geo("straddling", 990, 10, 20, 20)))
            .origin(-100, 0)
            .viewport(0, 0, 1000, 1000)
            .scope();

    PartOutput output = new PeripheralClustersPart().render(scope, 4096);

    // right1..3 have their centres in cell (row 0, column 1); straddling's centre (1000, 20) too.
    assertEquals(
        new JsonArray()
            .add(
                new JsonObject()
                    .put(
                        "bounds",
                        new JsonObject()
                            .put("x", 1090L)
                            .put("y", 10L)
                            .put("w", 520L)
                            .put("h", 700L))
                    .put("count", 4))
            .add(
                new JsonObject()
                    .put(
                        "bounds",
                        new JsonObject().put("x", 110L).put("y", 2010L).put("w", 30L).put("h", 30L))
                    .put("count", 1)),
        output.json());
    assertEquals(2, output.stats().getInteger("clusters"));
  }

  @Test
  void clustersAreTheSameForTheSameBoardWhateverTheRecordOrder() {
    List<JsonObject> records =
        List.of(
            geo("a", 2000, 0, 10, 10),
            geo("b", 0, 3000, 10, 10),
            geo("c", -2000, -2000, 10, 10),
            geo("d", 2100, 50, 10, 10));
    List<JsonObject> reversed = new ArrayList<>(records.stream().map(JsonObject::copy).toList());
    java.util.Collections.reverse(reversed);

    Object one =
        new PeripheralClustersPart()
            .render(new Inputs().board(board(records)).viewport(0, 0, 1000, 1000).scope(), 4096)
            .json();
    Object two =
        new PeripheralClustersPart()
            .render(new Inputs().board(board(reversed)).viewport(0, 0, 1000, 1000).scope(), 4096)
            .json();

    assertEquals(one, two);
  }

  @Test
  void theSelectionIsNamedAsTheModelNamesShapes() {
    PartScope scope =
        new Inputs()
            .board(board(geo("a", 0, 0, 10, 10), geo("b", 0, 0, 10, 10)))
            .selection("shape:b", "shape:a")
            .scope();

    PartOutput output = new SelectionPart().render(scope, 8192);

    assertEquals(new JsonArray().add("b").add("a"), output.json());
  }

  @Test
  void unknownSelectedIdsAreIgnoredAndBareIdsAccepted() {
    var board = board(geo("a", 0, 0, 10, 10), arrow("arrow", 0, 0, 5, 5));
    assertEquals(
        List.of("shape:a", "shape:arrow"),
        ContextGatherer.onBoard(
            board, List.of("a", "nope", "shape:a", "shape:arrow", "bad id!", "")));
  }

  @Test
  void selectedShapesComeInFullWithStylesRotationParentAndArrowEnds() {
    JsonObject box = rotated(Math.PI / 2, in("frame1", geo("box", 10, 20, 100, 50)));
    box.getJsonObject("props").put("color", "blue").put("fill", "solid");
    JsonObject frame = dev.canvasagent.support.TestShapes.frame("frame1", 0, 0, 500, 500);
    JsonObject link = arrow("link", 0, 0, 100, 0);
    JsonObject binding =
        new JsonObject()
            .put("id", "binding:x")
            .put("typeName", "binding")
            .put("type", "arrow")
            .put("fromId", "shape:link")
            .put("toId", "shape:box")
            .put("props", new JsonObject().put("terminal", "end"));
    PartScope scope =
        new Inputs()
            .board(board(frame, box, link, binding))
            .selection("shape:box", "shape:link")
            .scope();

    JsonArray shapes = (JsonArray) new SelectedShapesPart().render(scope, 16_384).json();

    JsonObject selectedBox = shapes.getJsonObject(0);
    assertEquals("box", selectedBox.getString("id"));
    assertEquals(90L, selectedBox.getLong("rotation"));
    assertEquals("frame1", selectedBox.getString("parentId"));
    assertEquals("blue", selectedBox.getString("color"));
    assertEquals("solid", selectedBox.getString("fill"));
    assertEquals("rectangle", selectedBox.getString("type"));
    assertEquals("box", shapes.getJsonObject(1).getString("toId"));
    assertFalse(shapes.getJsonObject(1).containsKey("fromId"));
  }

  @Test
  void shapeStateIsCappedAtItsLimitAndSaysHowMuchWentIn() {
    List<JsonObject> records = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      records.add(at(String.format("a%04d", i), geo("s" + i, i * 10.25, 0, 5, 5)));
    }
    PartScope scope =
        new Inputs().board(board(records)).origin(100, 0).selection("shape:s7").scope();
    int oneRecord =
        ModelShapes.state(scope.view().shape("shape:s0"), scope.frame()).encode().length() + 1;

    PartOutput output = new ShapeStatePart().render(scope, oneRecord * 3 + 5);

    JsonObject stats = output.stats().getJsonObject("shapeStateStats");
    assertEquals(3, stats.getInteger("count"));
    assertTrue(stats.getInteger("bytes") <= oneRecord * 3 + 5);
    assertTrue(stats.getBoolean("truncated"));
    assertTrue(output.truncated());
    assertNull(output.contextKey(), "text only");
    String first = output.text().split("\n")[1];
    assertEquals("shape:s7", new JsonObject(first).getString("id"), "the selected shape first");
    assertEquals(-28L, new JsonObject(first).getLong("x"), "71.75 - 100, rounded");

    PartOutput whole = new ShapeStatePart().render(scope, 1_000_000);
    assertEquals(
        new ShapeStateStats(
                10, PartOutput.utf8Length(whole.text()) - ShapeStatePart.HEADING.length(), false)
            .toJson(),
        whole.stats().getJsonObject("shapeStateStats"));
  }

  @Test
  void aShapeStateLimitOfZeroSendsNone() {
    PartScope scope = new Inputs().board(board(geo("a", 0, 0, 10, 10))).scope();

    PartOutput output = new ShapeStatePart().render(scope, 0);

    assertTrue(output.text().isEmpty());
    assertEquals(
        new ShapeStateStats(0, 0, true).toJson(), output.stats().getJsonObject("shapeStateStats"));
  }

  private static List<String> ids(JsonArray shapes) {
    return shapes.stream().map(shape -> ((JsonObject) shape).getString("id")).toList();
  }
}
