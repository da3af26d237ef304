package dev.canvasagent.eval;

import static dev.canvasagent.eval.EvalRoom.BoardView.prop;
import static dev.canvasagent.eval.EvalRoom.BoardView.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.TldrawStyles;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.catalog.PanelInsets;
import dev.canvasagent.catalog.ShapeKinds;
import dev.canvasagent.eval.EvalRoom.BoardView;
import dev.canvasagent.eval.EvalRoom.RunResult;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The eval suite's scripted half: every scenario of {@code conf/fake-model.json} runs through the real
 * server (HTTP in, SSE out, sanitizer, patch engine, store) and the board it leaves is checked — which
 * shapes, their kinds, texts, colors and how they sit relative to each other — and every record on it
 * passes tldraw's own schema. A scenario added to the file without a case here fails
 * {@link #everyScenarioHasAnEvalCase}.
 */
@ExtendWith(VertxExtension.class)
class FakeScenarioEvalTest {
  /** Each scenario's name and a message that plays it. */
  static final Map<String, String> TRIGGERS =
      Map.ofEntries(
          Map.entry("batch", "/batch"),
          Map.entry("two-passes", "/two-passes"),
          Map.entry("todos", "/todos for the diagram"),
          Map.entry("detail", "/detail"),
          Map.entry("json-actions", "/json please"),
          Map.entry("json-malformed", "/json-malformed please"),
          Map.entry("tour", "/tour please"),
          Map.entry("brutalist-poster", "Draft a brutalist poster concept for the launch"),
          Map.entry("clear", "/clear"),
          Map.entry("previews", "/previews please"),
          Map.entry("model-error", "/fail now"),
          Map.entry("invalid-action", "/invalid please"),
          Map.entry("labeled-box", "a box for the roadmap"));

  TestServer server;
  EvalRoom room;

  @BeforeEach
  void start(Vertx vertx) {
    // No pacing: the eval suite wants the answers, not the wait (still streamed, one event per
    // task).
    server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "0")));
    room = new EvalRoom(server, "eval-" + UUID.randomUUID().toString().substring(0, 8));
  }

  @AfterEach
  void stop() {
    room.close();
    Await.result(server.stop());
  }

  @Test
  void everyScenarioHasAnEvalCase() {
    FakeScenarios scenarios = FakeScenarios.load();
    Set<String> names =
        scenarios.scenarios().stream()
            .map(FakeScenarios.Scenario::name)
            .collect(Collectors.toSet());
    assertEquals(
        names,
        TRIGGERS.keySet(),
        "each scenario of conf/fake-model.json needs a case in this class");
    TRIGGERS.forEach(
        (name, message) -> {
          String played =
              scenarios
                  .scripted(message)
                  .map(FakeScenarios.Scenario::name)
                  .orElse(scenarios.fallback(message).name());
          assertEquals(name, played, "'" + message + "' plays " + name);
        });
  }

  /**
   * {@code batch_operations} end to end: four structures, each one action, one envelope and one
   * revision.
   */
  @Test
  void theBatchScenarioLeavesASwotAKanbanAJourneyAndAFlowchartEachFromOneAtomicRevision() {
    RunResult result = room.runDone(TRIGGERS.get("batch"));
    assertEquals(0, result.detail().getInteger("dropped"), result.finalStatus().encode());
    assertEquals(4, result.detail().getInteger("applied"), result.finalStatus().encode());
    List<String> skipped =
        result.detail().getJsonArray("skipped").stream()
            .map(issue -> ((JsonObject) issue).getString("ref"))
            .toList();
    assertEquals(
        List.of("note_rival", "conn_ghost"),
        skipped,
        "the duplicate ref and the connector to nothing, told back");
    List<JsonObject> batches =
        result.events().stream()
            .filter(event -> event.event().equals("agent:action"))
            .flatMap(
                event -> event.data().getJsonArray("actions").stream().map(JsonObject.class::cast))
            .filter(action -> "batch_operations".equals(action.getString("name")))
            .toList();
    assertEquals(4, batches.size(), "one envelope per batch");
    assertEquals(
        "note_rival",
        batches
            .get(0)
            .getJsonObject("params")
            .getJsonObject("result")
            .getJsonArray("skipped")
            .getJsonObject(0)
            .getString("ref"),
        "the envelope carries the action's result");

    BoardView board = room.board();
    assertEquals(4, board.revision(), "one board revision per batch");

    // The SWOT: 2×2, each quadrant holding its notes.
    Box strengths = board.bounds(board.withText("Strengths"));
    Box weaknesses = board.bounds(board.withText("Weaknesses"));
    Box opportunities = board.bounds(board.withText("Opportunities"));
    Box threats = board.bounds(board.withText("Threats"));
    assertEquals(strengths.minY(), weaknesses.minY(), 0.001);
    assertEquals(opportunities.minY(), threats.minY(), 0.001);
    assertEquals(strengths.minX(), opportunities.minX(), 0.001);
    assertEquals(weaknesses.minX(), threats.minX(), 0.001);
    assertEquals(
        board.withText("Strengths").getString("id"),
        board.withText("Loved brand").getString("parentId"));
    assertEquals(
        board.withText("Strengths").getString("id"),
        board.withText("Fast team").getString("parentId"));
    assertEquals(
        board.withText("Threats").getString("id"),
        board.withText("A new rival").getString("parentId"));
    assertEquals("violet", prop(board.withText("New market"), "color"), "purple, an alias");
    assertTrue(board.shapes().stream().noneMatch(shape -> "Duplicate ref".equals(text(shape))));
    assertTrue(
        board.bounds(board.withText("Launch SWOT")).maxY() <= strengths.minY(),
        "the title above it");

    // The kanban: columns left to right.
    List<Box> columns =
        List.of("To do", "Doing", "Done").stream()
            .map(name -> board.bounds(board.withText(name)))
            .toList();
    assertTrue(
        columns.get(0).maxX() < columns.get(1).minX()
            && columns.get(1).maxX() < columns.get(2).minX(),
        columns.toString());
    assertEquals(columns.get(0).minY(), columns.get(2).minY(), 0.001);
    assertEquals(
        board.withText("To do").getString("id"),
        board.withText("Plan the tests").getString("parentId"));

    // The journey: stages left to right, linked by arrows bound to consecutive stages.
    List<String> stages =
        List.of("Discover", "Try", "Buy").stream()
            .map(name -> board.withText(name).getString("id"))
            .toList();
    Set<List<String>> links =
        board.ofType("arrow").stream()
            .map(arrow -> ends(board, arrow))
            .filter(ends -> stages.contains(ends.get(0)))
            .collect(Collectors.toSet());
    assertEquals(
        Set.of(List.of(stages.get(0), stages.get(1)), List.of(stages.get(1), stages.get(2))),
        links);

    // The flowchart: Start above the check above its two outcomes; the retry loop does not break
    // it.
    Box start = board.bounds(board.withText("Start"));
    Box check = board.bounds(board.withText("Valid?"));
    Box save = board.bounds(board.withText("Save"));
    Box fix = board.bounds(board.withText("Fix it"));
    assertTrue(
        start.maxY() < check.minY() && check.maxY() < save.minY(),
        "roots above what depends on them");
    assertEquals(save.minY(), fix.minY(), 0.001);
    assertEquals("diamond", prop(board.withText("Valid?"), "geo"));
    JsonObject retry = board.withText("retry");
    assertEquals(
        List.of(board.withText("Fix it").getString("id"), board.withText("Valid?").getString("id")),
        ends(board, retry));
    assertEquals(
        6,
        board.ofType("arrow").size(),
        "four connectors of the flowchart, two links of the journey");

    // Each structure landed in free space: no two top-level objects overlap.
    List<JsonObject> topLevel =
        board.shapes().stream()
            .filter(shape -> "page:page".equals(shape.getString("parentId")))
            .filter(shape -> !"arrow".equals(shape.getString("type")))
            .toList();
    for (int i = 0; i < topLevel.size(); i++) {
      for (int j = i + 1; j < topLevel.size(); j++) {
        BoardView.assertApart(board.bounds(topLevel.get(i)), board.bounds(topLevel.get(j)));
      }
    }
  }

  /** The shape ids an arrow is bound to, start then end. */
  static List<String> ends(BoardView board, JsonObject arrow) {
    return List.of("start", "end").stream()
        .map(
            terminal ->
                board.bindings().stream()
                    .filter(binding -> arrow.getString("id").equals(binding.getString("fromId")))
                    .filter(
                        binding ->
                            terminal.equals(binding.getJsonObject("props").getString("terminal")))
                    .map(binding -> binding.getString("toId"))
                    .findFirst()
                    .orElseThrow())
        .toList();
  }

  @Test
  void thePosterLeavesAHeroABlockAVerticalDividerAndThreeNotesInARowInsideThePersonsView() {
    // The browser client's canvas at 1280 x 800, somewhere on the page: the notes say no place, so
    // the server puts them where this person can see them, clear of tldraw's panels.
    Box view = Box.of(5000, 3000, 920, 760);
    RunResult result =
        room.run(
            new JsonObject()
                .put("message", TRIGGERS.get("brutalist-poster"))
                .put(
                    "viewport",
                    new JsonObject()
                        .put("x", view.minX())
                        .put("y", view.minY())
                        .put("w", view.width())
                        .put("h", view.height())));
    assertEquals("done", result.state(), result.finalStatus().encode());
    assertEquals(0, result.detail().getInteger("dropped"), result.finalStatus().encode());
    assertTrue(
        result.chat().stream().anyMatch(text -> text.startsWith("Poster drafted")),
        result.chat().toString());

    BoardView board = room.board();
    assertEquals(6, board.shapes().size(), "hero, block, divider, three notes");
    JsonObject hero = board.only("text");
    assertEquals("RAW. HONEST. LOUD.", text(hero));
    assertEquals("xl", prop(hero, "size"));
    assertEquals("sans", prop(hero, "font"));
    assertEquals("black", prop(hero, "color"), "charcoal is black in tldraw");

    JsonObject block = board.only("geo");
    assertEquals("rectangle", prop(block, "geo"));
    assertEquals("orange", prop(block, "color"), "brutalist orange");
    assertEquals("solid", prop(block, "fill"));
    assertEquals("mono", prop(block, "font"));
    assertTrue(text(block).startsWith("Concrete, steel and type"), text(block));

    JsonObject divider = board.only("line");
    assertEquals("black", prop(divider, "color"));
    assertEquals("xl", prop(divider, "size"));
    Box line = board.bounds(divider);
    assertTrue(line.width() < 1 && line.height() >= 300, "a vertical divider: " + line);

    List<JsonObject> notes =
        board.ofType("note").stream()
            .sorted(Comparator.comparingDouble(note -> board.bounds(note).minX()))
            .toList();
    assertEquals(3, notes.size());
    assertEquals(
        List.of("orange", "grey", "black"),
        notes.stream().map(note -> prop(note, "color")).toList());
    assertEquals(
        List.of(
            "TYPE: heavy grotesk, all caps",
            "PALETTE: orange, concrete, ink",
            "GRID: hard edges, no rounding"),
        notes.stream().map(EvalRoom.BoardView::text).toList());
    Box safeArea = PanelInsets.TLDRAW.safeArea(view);
    for (int i = 0; i < notes.size(); i++) {
      Box note = board.bounds(notes.get(i));
      assertEquals(board.bounds(notes.get(0)).minY(), note.minY(), 0.001, "the notes share a row");
      assertTrue(note.isWithin(safeArea), "in view, clear of the panels: " + note);
      if (i > 0) {
        assertTrue(board.bounds(notes.get(i - 1)).maxX() <= note.minX(), "side by side, apart");
      }
    }

    Box heroBox = board.bounds(hero);
    Box blockBox = board.bounds(block);
    assertTrue(heroBox.maxY() <= blockBox.minY(), "the headline above its block");
    assertTrue(
        heroBox.maxX() <= line.minX() && blockBox.maxX() <= line.minX(),
        "headline and block left of the divider");
    for (JsonObject note : notes) {
      for (Box other : List.of(heroBox, blockBox, line)) {
        assertTrue(
            !board.bounds(note).isWithin(other) && apart(board.bounds(note), other, 40),
            "each note clear of the poster: " + board.bounds(note) + " " + other);
      }
    }
    assertTrue(
        line.minY() <= heroBox.minY() && line.maxY() >= blockBox.maxY(),
        "the divider spans headline and block");
  }

  private static boolean apart(Box a, Box b, double gap) {
    return a.maxX() + gap <= b.minX()
        || b.maxX() + gap <= a.minX()
        || a.maxY() + gap <= b.minY()
        || b.maxY() + gap <= a.minY();
  }

  @Test
  void theTourLeavesEveryKindOfShapeArrangedAsItsVerbsSaid() {
    RunResult result = room.request(TRIGGERS.get("tour"));
    assertEquals("done", result.state(), result.finalStatus().encode());
    assertEquals(
        3,
        result.detail().getInteger("followups"),
        "add_detail, review, and open_todos for the todo it left open");
    assertEquals(
        0,
        result.events().stream()
            .filter(event -> event.event().equals("agent:status"))
            .mapToInt(
                event ->
                    event.data().getJsonObject("detail", new JsonObject()).getInteger("dropped", 0))
            .sum());

    BoardView board = room.board();
    JsonObject hero = board.shape("hero").orElseThrow();
    assertEquals("geo", hero.getString("type"));
    assertEquals(
        "violet",
        prop(hero, "color"),
        "the update streamed before its create waited for it: purple is violet");
    assertEquals(360.0, hero.getJsonObject("props").getDouble("w"), 0.001, "300 scaled by 1.2");
    assertEquals("/tour please", text(hero), "the message, substituted");

    JsonObject caption = board.shape("cap").orElseThrow();
    assertEquals("text", caption.getString("type"));
    assertEquals("Caption, relabeled", text(caption));
    assertEquals("shape:pair2", caption.getString("parentId"), "grouped with the note");
    assertEquals("shape:pair2", board.shape("note1").orElseThrow().getString("parentId"));
    assertEquals("group", board.shape("pair2").orElseThrow().getString("type"));
    assertTrue(board.shape("pair").isEmpty(), "the first group was ungrouped");
    assertTrue(board.shape("line1").isEmpty(), "the line was deleted");

    assertEquals("A frame", text(board.shape("frame1").orElseThrow()));
    assertEquals("next", text(board.shape("arrow1").orElseThrow()));
    Set<String> linkEnds =
        board.bindings().stream()
            .filter(binding -> binding.getString("fromId").equals("shape:link"))
            .map(binding -> binding.getString("toId"))
            .collect(Collectors.toSet());
    assertEquals(Set.of("shape:hero", "shape:frame1"), linkEnds, "the link is bound at both ends");
    assertEquals(2, board.ofType("draw").size(), "the scribble and the pen stroke");
    assertEquals("A quiet note", text(board.withText("A quiet note")));

    Box heroBox = board.bounds(hero);
    Box scribble = board.bounds(board.shape("scribble").orElseThrow());
    assertEquals(heroBox.maxX() + 40, scribble.minX(), 1, "placed right of the hero, 40 apart");
    Box captionBox = board.bounds(caption);
    assertTrue(captionBox.minY() >= heroBox.maxY(), "stacked under the hero");
  }

  @Test
  void thePreviewsScenarioLeavesOneShapeOfEveryKindTheCatalogCanCreate() {
    RunResult result = room.runDone(TRIGGERS.get("previews"));
    assertEquals(0, result.detail().getInteger("dropped"), result.finalStatus().encode());
    Set<String> words = new TreeSet<>(ShapeKinds.words().fieldNames());
    words.addAll(TldrawStyles.GEOS);
    BoardView board = room.board();
    assertEquals(words.size(), board.shapes().size(), "one shape per word");
    for (String word : words) {
      ShapeKinds.Kind kind = ShapeKinds.of(word).orElseThrow();
      JsonObject shape =
          board.shape("kind-" + word).orElseThrow(() -> new AssertionError("no shape for " + word));
      assertEquals(kind.type(), shape.getString("type"), word);
      if (kind.geo() != null) {
        assertEquals(kind.geo(), prop(shape, "geo"), word);
      }
    }
  }

  @Test
  void clearEmptiesABoardThePosterFilled() {
    room.runDone(TRIGGERS.get("brutalist-poster"));
    assertEquals(6, room.board().shapes().size());

    room.runDone(TRIGGERS.get("clear"));
    BoardView board = room.board();
    assertEquals(List.of(), board.shapes());
    assertEquals(List.of(), board.bindings());
  }

  @Test
  void theTwoPassesScenarioDrawsTwelveBoxesThenTwelveCirclesInItsFollowUps() {
    RunResult result = room.request(TRIGGERS.get("two-passes"));
    assertEquals("done", result.state(), result.finalStatus().encode());
    assertEquals(2, result.detail().getInteger("followups"), result.finalStatus().encode());
    BoardView board = room.board();
    assertEquals(24, board.shapes().size());
    assertEquals(
        12,
        board.ofType("geo").stream().filter(shape -> "ellipse".equals(prop(shape, "geo"))).count());
  }

  @Test
  void theTodoScenarioLeavesItsRectangleAndDropsOnlyTheUnknownTodo() {
    RunResult result = room.run(TRIGGERS.get("todos"));
    assertEquals(
        "scheduled",
        result.state(),
        "the open todo earns an open_todos follow-up: " + result.finalStatus().encode());
    assertEquals(
        1, result.detail().getInteger("dropped"), "the update of a todo the session does not have");
    BoardView board = room.board();
    assertEquals(1, board.shapes().size());
    assertEquals("Layout", text(board.only("geo")));
  }

  @Test
  void theDetailScenarioRunsFollowUpsUpToTheCapAndDrawsNothing() {
    RunResult result = room.request(TRIGGERS.get("detail"));
    assertEquals("done", result.state(), result.finalStatus().encode());
    assertEquals(3, result.detail().getInteger("followups"), "CANVAS_AGENT_MAX_FOLLOWUPS is 3");
    assertEquals(
        4,
        result.chat().stream().filter("One more pass, please."::equals).count(),
        "the request and its three follow-ups");
    assertEquals(0, room.board().revision());
  }

  @Test
  void theJsonScenarioAppliesTheActionsWrittenInItsText() {
    RunResult result = room.runDone(TRIGGERS.get("json-actions"));
    assertEquals(0, result.detail().getInteger("dropped"), result.finalStatus().encode());
    BoardView board = room.board();
    assertEquals(2, board.shapes().size());
    assertEquals("Caf\u00e9 \"A\"", text(board.only("geo")));
    assertEquals("green", prop(board.only("geo"), "color"));
    assertEquals("Read from text \u2713", text(board.only("note")));
  }

  @Test
  void theMalformedJsonScenarioKeepsTheActionBeforeTheFaultAndEndsInError() {
    RunResult result = room.run(TRIGGERS.get("json-malformed"));
    assertEquals("error", result.state());
    assertEquals("ACTIONS_MALFORMED", result.detail().getString("code"));
    BoardView board = room.board();
    assertEquals(1, board.shapes().size());
    assertEquals("rectangle", prop(board.only("geo"), "geo"));
  }

  @Test
  void aModelErrorLeavesTheBoardUntouched() {
    RunResult result = room.run(TRIGGERS.get("model-error"));
    assertEquals("error", result.state());
    assertEquals("MODEL_ERROR", result.detail().getString("code"));
    BoardView board = room.board();
    assertEquals(0, board.revision());
    assertEquals(List.of(), board.shapes());
  }

  @Test
  void theInvalidScenarioLeavesOnlyItsValidRectangle() {
    RunResult result = room.runDone(TRIGGERS.get("invalid-action"));
    assertEquals(2, result.detail().getInteger("dropped"));
    BoardView board = room.board();
    JsonObject rectangle = board.only("geo");
    assertEquals(1, board.shapes().size());
    assertEquals("rectangle", prop(rectangle, "geo"));
    assertEquals("/invalid please", text(rectangle));
  }

  @Test
  void anyOtherMessageLeavesALabeledBoxANoteBesideItAndACaptionBelow() {
    RunResult result = room.runDone(TRIGGERS.get("labeled-box"));
    assertTrue(
        result.chat().stream().anyMatch(text -> text.startsWith("Drawing a labeled box")),
        result.chat().toString());
    BoardView board = room.board();
    assertEquals(3, board.shapes().size());
    JsonObject box = board.only("geo");
    assertEquals("rectangle", prop(box, "geo"));
    assertEquals("blue", prop(box, "color"));
    assertEquals("semi", prop(box, "fill"));
    assertEquals("a box for the roadmap", text(box));
    JsonObject note = board.only("note");
    assertEquals("yellow", prop(note, "color"));
    assertEquals("Next: refine", text(note));
    JsonObject caption = board.only("text");
    assertEquals("grey", prop(caption, "color"));
    assertEquals("Drafted by debug/fake", text(caption));
    assertTrue(board.bounds(box).maxX() <= board.bounds(note).minX(), "the note right of the box");
    assertTrue(board.bounds(box).maxY() <= board.bounds(caption).minY(), "the caption below it");
  }
}
