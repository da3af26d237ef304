package dev.canvasagent.model.fake.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.model.fake.FakeAnswer;
import dev.canvasagent.model.fake.FakeAnswer.ToolCall;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The planner, one command at a time, against contexts built by hand the way the context builder
 * fills {@code ModelRequest.context()}: shapes {@code {id,type,x,y,w,h,text}} in paint order, the
 * selection, the viewport — all in the model's coordinates.
 */
class CommandPlannerTest {
  final CommandPlanner planner = new CommandPlanner(List.of("/poster: a poster"));

  static JsonObject shape(String id, String type, int x, int y, int w, int h, String text) {
    return new JsonObject()
        .put("id", id)
        .put("type", type)
        .put("x", x)
        .put("y", y)
        .put("w", w)
        .put("h", h)
        .put("text", text);
  }

  /** Three boxes in a row, A B C, C on top. */
  static JsonObject threeBoxes() {
    return new JsonObject()
        .put("message", "ignored here")
        .put("viewport", new JsonObject().put("x", 0).put("y", 0).put("w", 1200).put("h", 800))
        .put(
            "shapes",
            new JsonArray()
                .add(shape("ag:a", "geo", 100, 100, 200, 120, "A"))
                .add(shape("ag:b", "geo", 400, 150, 200, 120, "B"))
                .add(shape("ag:c", "note", 700, 300, 200, 200, "C")));
  }

  FakeAnswer plan(String message, JsonObject context) {
    return planner
        .plan(message, context)
        .orElseThrow(() -> new AssertionError("the planner did not take: " + message));
  }

  static ToolCall only(FakeAnswer answer) {
    assertEquals(1, answer.calls().size(), answer.toString());
    return answer.calls().get(0);
  }

  static List<String> ids(ToolCall call) {
    return call.arguments().getJsonArray("shapeIds").stream().map(String.class::cast).toList();
  }

  // What it takes

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a labeled box",
        "one",
        "what's up?",
        "x",
        "/tour",
        "the board looks nice",
        "four calls"
      })
  void aMessageThatIsNotACommandIsNotThePlannersBusiness(String message) {
    assertEquals(Optional.empty(), planner.plan(message, new JsonObject()));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "draw a roadmap",
        "move it sideways",
        "make it",
        "put it somewhere",
        "resize them",
        "draw"
      })
  void aCommandItCannotFollowGetsTheHelpAndNoAction(String message) {
    FakeAnswer answer = plan(message, threeBoxes());
    assertEquals(List.of(), answer.calls());
    assertTrue(answer.text().startsWith("I didn't understand"), answer.text());
    assertTrue(
        answer.text().contains("connect A to B") && answer.text().contains("/poster: a poster"),
        answer.text());
  }

  @Test
  void helpListsTheGrammarAndTheScenarios() {
    FakeAnswer answer = plan("help", new JsonObject());
    assertEquals(List.of(), answer.calls());
    assertTrue(
        answer.text().contains("draw|add|create") && answer.text().contains("- /poster: a poster"),
        answer.text());
  }

  // Creating

  @Test
  void drawABlueRectangleLabeledA() {
    ToolCall call = only(plan("draw a blue rectangle labeled A", new JsonObject()));
    assertEquals("create_shape", call.name());
    JsonObject arguments = call.arguments();
    assertEquals("rectangle", arguments.getString("type"));
    assertEquals("A", arguments.getString("text"));
    assertEquals(
        new JsonObject().put("w", 200L).put("h", 120L).put("color", "blue"),
        arguments.getJsonObject("props"));
    assertEquals(40L, arguments.getLong("x"), "the default area's margin");
    assertEquals(40L, arguments.getLong("y"));
  }

  @Test
  void politeFramingAndPunctuationDoNotMatter() {
    JsonObject arguments =
        only(plan("Please draw a blue rectangle labeled A.", new JsonObject())).arguments();
    assertEquals("A", arguments.getString("text"));
    JsonObject asked =
        only(plan("can you add a star called \"North\"?", new JsonObject())).arguments();
    assertEquals("star", asked.getString("type"));
    assertEquals("North", asked.getString("text"));
  }

  @Test
  void shapeWordsColorsAndLabelsInManyForms() {
    assertEquals(
        "ellipse", only(plan("draw a circle", new JsonObject())).arguments().getString("type"));
    assertEquals("oval", only(plan("add an oval", new JsonObject())).arguments().getString("type"));
    assertEquals(
        "diamond", only(plan("create a diamond", new JsonObject())).arguments().getString("type"));
    assertEquals(
        "triangle",
        only(plan("sketch a triangle", new JsonObject())).arguments().getString("type"));
    JsonObject note = only(plan("add a sticky note saying buy milk", new JsonObject())).arguments();
    assertEquals("sticky", note.getString("type"));
    assertEquals("buy milk", note.getString("text"));
    JsonObject colon = only(plan("put a note: call Bob", new JsonObject())).arguments();
    assertEquals("call Bob", colon.getString("text"));
    JsonObject text = only(plan("write Hello world", new JsonObject())).arguments();
    assertEquals("text", text.getString("type"));
    assertEquals("Hello world", text.getString("text"));
    assertEquals(
        "light-blue",
        only(plan("draw a light blue square", new JsonObject()))
            .arguments()
            .getJsonObject("props")
            .getString("color"));
    assertEquals(
        "violet",
        only(plan("draw a purple box", new JsonObject()))
            .arguments()
            .getJsonObject("props")
            .getString("color"));
    assertEquals(
        "orange",
        only(plan("draw a brutalist orange box", new JsonObject()))
            .arguments()
            .getJsonObject("props")
            .getString("color"),
        "brand names become tldraw's, whatever the theme flag");
    JsonObject filled =
        only(plan("draw a filled dashed red box", new JsonObject()))
            .arguments()
            .getJsonObject("props");
    assertEquals("solid", filled.getString("fill"));
    assertEquals("dashed", filled.getString("dash"));
    JsonObject quoted = only(plan("draw a box \"Q3 plan\"", new JsonObject())).arguments();
    assertEquals("Q3 plan", quoted.getString("text"));
    JsonObject labeledRed = only(plan("draw a box labeled red", new JsonObject())).arguments();
    assertEquals("red", labeledRed.getString("text"));
    assertEquals(
        null,
        labeledRed.getJsonObject("props").getString("color"),
        "the label's words are not styles");
  }

  @Test
  void nBoxesGoInARowWithoutOverlapping() {
    FakeAnswer answer = plan("draw 3 red circles", new JsonObject());
    assertEquals(3, answer.calls().size());
    assertEquals("Drawing 3 red circles.", answer.text());
    long previousRight = Long.MIN_VALUE;
    for (ToolCall call : answer.calls()) {
      JsonObject arguments = call.arguments();
      assertEquals("ellipse", arguments.getString("type"));
      assertEquals("red", arguments.getJsonObject("props").getString("color"));
      assertEquals(
          answer.calls().get(0).arguments().getLong("y"), arguments.getLong("y"), "one row");
      assertTrue(arguments.getLong("x") > previousRight, "left to right, apart");
      previousRight = arguments.getLong("x") + arguments.getJsonObject("props").getLong("w");
    }
  }

  @Test
  void pluralLabelsNameOneShapeEach() {
    FakeAnswer answer = plan("draw boxes labeled A, B and C", new JsonObject());
    assertEquals(
        List.of("A", "B", "C"),
        answer.calls().stream().map(call -> call.arguments().getString("text")).toList());
    FakeAnswer two = plan("add two notes called left and right", new JsonObject());
    assertEquals(
        List.of("left", "right"),
        two.calls().stream().map(call -> call.arguments().getString("text")).toList());
    assertEquals(2, plan("draw a couple of stars", new JsonObject()).calls().size());
    assertEquals(
        1,
        plan("draw a box labeled salt and pepper", new JsonObject()).calls().size(),
        "one box: one label");
  }

  @Test
  void tooManyShapesAreRefusedInWords() {
    FakeAnswer answer = plan("draw 500 boxes", new JsonObject());
    assertEquals(List.of(), answer.calls());
    assertTrue(answer.text().contains("1 to 20"), answer.text());
  }

  @Test
  void newShapesGoInsideTheViewportAndAvoidTheShapesInView() {
    JsonObject context =
        new JsonObject()
            .put(
                "viewport",
                new JsonObject().put("x", 1000).put("y", 500).put("w", 800).put("h", 600))
            .put("shapes", new JsonArray().add(shape("big", "geo", 1000, 500, 500, 300, "")));
    JsonObject arguments = only(plan("draw a box", context)).arguments();
    long x = arguments.getLong("x");
    long y = arguments.getLong("y");
    assertTrue(
        x >= 1000 && x + 200 <= 1800 && y >= 500 && y + 120 <= 1100,
        "inside the viewport: " + arguments);
    boolean apart = x >= 1500 || y >= 800;
    assertTrue(apart, "clear of the big shape: " + arguments);
  }

  @Test
  void whenTheViewportIsFullNewShapesGoRightOfEverything() {
    JsonObject context =
        new JsonObject()
            .put("viewport", new JsonObject().put("x", 0).put("y", 0).put("w", 400).put("h", 300))
            .put("shapes", new JsonArray().add(shape("wall", "geo", 0, 0, 400, 300, "")));
    JsonObject arguments = only(plan("draw a box", context)).arguments();
    assertTrue(arguments.getLong("x") >= 440, arguments.encode());
  }

  @Test
  void arrowsAndLinesAreDrawnByTheirPoints() {
    JsonObject arrow = only(plan("draw an arrow", new JsonObject())).arguments();
    assertEquals("arrow", arrow.getString("type"));
    assertEquals(
        arrow.getJsonObject("start").getLong("y"), arrow.getJsonObject("end").getLong("y"));
    assertTrue(arrow.getJsonObject("end").getLong("x") > arrow.getJsonObject("start").getLong("x"));
    JsonObject line = only(plan("draw a green line", new JsonObject())).arguments();
    assertEquals(2, line.getJsonArray("points").size());
    assertEquals("green", line.getJsonObject("props").getString("color"));
  }

  // Referring: it, them, labels

  @Test
  void itIsTheOneSelectedShapeElseTheTopmost() {
    assertEquals(
        List.of("ag:c"),
        ids(only(plan("move it right", threeBoxes()))),
        "no selection: the topmost");
    JsonObject selected = threeBoxes().put("selection", new JsonArray().add("ag:a"));
    assertEquals(List.of("ag:a"), ids(only(plan("move it right", selected))));
    JsonObject two = threeBoxes().put("selection", new JsonArray().add("ag:a").add("ag:b"));
    assertEquals(
        List.of("ag:c"), ids(only(plan("delete it", two))), "two selected: 'it' is the topmost");
  }

  @Test
  void themIsTheSelectionElseEveryShapeInView() {
    assertEquals(List.of("ag:a", "ag:b", "ag:c"), ids(only(plan("align them left", threeBoxes()))));
    JsonObject two = threeBoxes().put("selection", new JsonArray().add("ag:b").add("ag:c"));
    assertEquals(List.of("ag:b", "ag:c"), ids(only(plan("align them left", two))));
  }

  @Test
  void shapesCanBeNamedByLabelIdOrKind() {
    assertEquals(List.of("ag:b"), ids(only(plan("move B down", threeBoxes()))));
    assertEquals(List.of("ag:a"), ids(only(plan("move the box labeled a up by 10", threeBoxes()))));
    assertEquals(List.of("ag:a", "ag:b"), ids(only(plan("delete A and B", threeBoxes()))));
    assertEquals(List.of("ag:b"), ids(only(plan("delete ag:b", threeBoxes()))));
    assertEquals(List.of("ag:c"), ids(only(plan("move the note left", threeBoxes()))));
  }

  @Test
  void withNothingInViewItAndThemAreExplainedNotGuessed() {
    for (String command :
        List.of(
            "move it right",
            "delete it",
            "align them",
            "make it bigger",
            "color it red",
            "distribute them")) {
      FakeAnswer answer = plan(command, new JsonObject());
      assertEquals(List.of(), answer.calls(), command);
      assertTrue(
          answer.text().startsWith("I can't see a shape to "), command + ": " + answer.text());
    }
    FakeAnswer missing = plan("move Z right", threeBoxes());
    assertEquals(List.of(), missing.calls());
    assertEquals("I can't find a shape called “z” on the board.", missing.text());
  }

  // Changing

  @Test
  void moveByDirectionAndDistance() {
    JsonObject right = only(plan("move it right", threeBoxes())).arguments();
    assertEquals(100L, right.getLong("dx"));
    assertEquals(0L, right.getLong("dy"));
    JsonObject up = only(plan("move them up by 40", threeBoxes())).arguments();
    assertEquals(-40L, up.getLong("dy"));
    assertEquals(3, up.getJsonArray("shapeIds").size());
    JsonObject diagonal = only(plan("move it down and left 25px", threeBoxes())).arguments();
    assertEquals(-25L, diagonal.getLong("dx"));
    assertEquals(25L, diagonal.getLong("dy"));
    assertEquals(
        40L, only(plan("nudge it to the right a bit", threeBoxes())).arguments().getLong("dx"));
  }

  @Test
  void deleteItDeleteEverythingAndClear() {
    ToolCall delete = only(plan("delete it", threeBoxes()));
    assertEquals("delete_shape", delete.name());
    assertEquals(List.of("ag:c"), ids(delete));
    for (String command :
        List.of(
            "delete everything", "clear", "clear the board", "remove all", "erase everything")) {
      assertEquals("clear", only(plan(command, new JsonObject())).name(), command);
    }
  }

  @Test
  void alignments() {
    assertEquals("left", only(plan("align them", threeBoxes())).arguments().getString("alignment"));
    assertEquals(
        "top",
        only(plan("align them to the top", threeBoxes())).arguments().getString("alignment"));
    assertEquals(
        "right",
        only(plan("align everything right", threeBoxes())).arguments().getString("alignment"));
    assertEquals(
        "center-horizontal",
        only(plan("align them center", threeBoxes())).arguments().getString("alignment"));
    assertEquals(
        "center-vertical",
        only(plan("align them middle", threeBoxes())).arguments().getString("alignment"));
    assertEquals(
        "center-vertical",
        only(plan("align them horizontally", threeBoxes())).arguments().getString("alignment"),
        "in a row");
    assertEquals(
        "center-horizontal",
        only(plan("align them vertically", threeBoxes())).arguments().getString("alignment"),
        "in a column");
    JsonObject one = threeBoxes().put("selection", new JsonArray().add("ag:a"));
    FakeAnswer alone = plan("align them", one);
    assertEquals(List.of(), alone.calls());
    assertTrue(alone.text().contains("at least two"), alone.text());
  }

  @Test
  void distributeFollowsTheWiderSpreadUnlessTold() {
    assertEquals(
        "horizontal",
        only(plan("distribute them", threeBoxes())).arguments().getString("direction"));
    assertEquals(
        "vertical",
        only(plan("distribute them vertically", threeBoxes())).arguments().getString("direction"));
    assertEquals(
        "horizontal",
        only(plan("space them out", threeBoxes())).arguments().getString("direction"));
    JsonObject two = threeBoxes().put("selection", new JsonArray().add("ag:a").add("ag:b"));
    assertTrue(plan("distribute them", two).text().contains("at least three"));
  }

  @Test
  void biggerAndSmallerScaleAboutTheCentre() {
    JsonObject bigger = only(plan("make it bigger", threeBoxes())).arguments();
    assertEquals(1.5, bigger.getDouble("scaleX"));
    assertEquals(1.5, bigger.getDouble("scaleY"));
    assertEquals(800L, bigger.getLong("originX"), "the centre of the topmost note");
    assertEquals(400L, bigger.getLong("originY"));
    assertEquals(
        0.667, only(plan("make them smaller", threeBoxes())).arguments().getDouble("scaleX"));
    assertEquals(
        2.0, only(plan("make it twice as big", threeBoxes())).arguments().getDouble("scaleX"));
    assertEquals(0.667, only(plan("shrink A", threeBoxes())).arguments().getDouble("scaleX"));
    assertEquals(List.of("ag:a"), ids(only(plan("make A a bit bigger", threeBoxes()))));
    assertEquals(3.0, only(plan("scale it 3x", threeBoxes())).arguments().getDouble("scaleX"));
  }

  @Test
  void colorItUpdatesEachShapesColor() {
    ToolCall call = only(plan("color it red", threeBoxes()));
    assertEquals("update_shape", call.name());
    assertEquals(
        new JsonObject().put("shapeId", "ag:c").put("props", new JsonObject().put("color", "red")),
        call.arguments());
    FakeAnswer them = plan("paint them light blue", threeBoxes());
    assertEquals(3, them.calls().size());
    them.calls()
        .forEach(
            each ->
                assertEquals(
                    "light-blue", each.arguments().getJsonObject("props").getString("color")));
    assertEquals("ag:a", only(plan("make A green", threeBoxes())).arguments().getString("shapeId"));
    assertEquals(
        "ag:b", only(plan("turn B orange", threeBoxes())).arguments().getString("shapeId"));
    FakeAnswer noColor = plan("color it", threeBoxes());
    assertEquals(List.of(), noColor.calls());
    assertTrue(noColor.text().startsWith("Which color?"), noColor.text());
  }

  @Test
  void connectATobBindsAnArrowToBoth() {
    ToolCall call = only(plan("connect A to B", threeBoxes()));
    assertEquals(
        new JsonObject().put("type", "arrow").put("fromId", "ag:a").put("toId", "ag:b"),
        call.arguments());
    assertEquals(
        call.arguments(), only(plan("draw an arrow from A to B", threeBoxes())).arguments());
    assertEquals(2, plan("connect them", threeBoxes()).calls().size(), "A→B, B→C");
    assertTrue(plan("connect A to A", threeBoxes()).text().contains("one shape twice"));
    assertTrue(plan("connect A to Q", threeBoxes()).text().contains("“q”"));
  }

  @Test
  void makeWithAShapeCreatesAndMakeWithItChanges() {
    assertEquals("create_shape", only(plan("make a red box", new JsonObject())).name());
    assertEquals("create_shape", only(plan("make 1 box", new JsonObject())).name());
    assertEquals("update_shape", only(plan("make it red", threeBoxes())).name());
    assertEquals("resize", only(plan("make them bigger", threeBoxes())).name());
  }

  @Test
  void aViewportThatIsNotFourFiniteNumbersIsIgnored() {
    JsonObject context =
        new JsonObject()
            .put(
                "viewport", new JsonObject().put("x", "left").put("y", 0).put("w", 10).put("h", 10))
            .put(
                "shapes",
                new JsonArray().add("not a shape").add(new JsonObject().put("type", "geo")))
            .put("selection", "not an array");
    JsonObject arguments = only(plan("draw a box", context)).arguments();
    assertEquals(40L, arguments.getLong("x"));
  }
}
