package dev.canvasagent.runner.context;

import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.geo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.TodoStore.Todo;
import dev.canvasagent.store.TranscriptStore.Utterance;
import dev.canvasagent.support.TestServer;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Parts assembled by priority within their budgets and the total budget, with stats for the run log. */
class ContextBuilderTest {
  long now = 1_000_000;

  ContextBuilder builder(Map<String, String> environment) {
    AppConfig config = TestServer.config(environment);
    return ContextBuilder.create(config, () -> now);
  }

  Inputs everything() {
    Inputs inputs =
        new Inputs()
            .board(board(geo("box", 110, 60, 100, 50), geo("far", 5000, 5000, 10, 10)))
            .origin(100, 50)
            .viewport(100, 50, 800, 600)
            .selection("shape:box");
    inputs.transcript = List.of(new Utterance("ana", "make it blue", 999_000));
    inputs.chat = List.of(new ChatMessage("user", "draw a box", 1, null));
    inputs.todos =
        List.of(new Todo("t1", "session-1", "headline", TodoStore.Status.OPEN, 0, 1, null));
    return inputs;
  }

  @Test
  void everyKeyOfTheStructuredContextComesFromItsPart() {
    BuiltContext built = builder(Map.of()).build(everything().build(), 0);

    assertEquals(
        Set.of(
            ModelContext.MESSAGE,
            ModelContext.VIEWPORT,
            ModelContext.SELECTION,
            ModelContext.SHAPES,
            ModelContext.PERIPHERAL,
            ModelContext.SELECTED_SHAPES,
            ModelContext.TODOS,
            ModelContext.CHAT,
            ModelContext.TRANSCRIPT,
            ModelContext.DOC_VERSION),
        built.context().fieldNames());
    assertEquals("draw a box", built.userMessage());
    assertEquals(new JsonArray().add("box"), built.context().getJsonArray(ModelContext.SELECTION));
    assertEquals(
        10L, built.context().getJsonArray(ModelContext.SHAPES).getJsonObject(0).getLong("x"));
    assertNull(built.screenshot());
  }

  @Test
  void sectionsAreInPriorityOrder() {
    String text = builder(Map.of()).build(everything().build(), 0).contextText();

    List<String> headings = text.lines().filter(line -> line.startsWith("## ")).toList();
    assertEquals(
        List.of(
            "## Board revision (docVersion)",
            "## Viewport: what the person sees {x, y, w, h}",
            "## Selected shape ids",
            "## Selected shapes in full",
            "## Shapes in view {id, type, x, y, w, h, text}, back to front (the last is on top)",
            "## Transcript: what was said lately {speaker, text, ts}",
            "## Chat history {role, text}, oldest first",
            "## Todo list {id, text, status}",
            "## Off-screen shapes, clustered {bounds, count}",
            "## Shape state (tldraw records)"),
        headings);
  }

  @Test
  void statsSayWhatTheContextHeld() {
    BuiltContext built = builder(Map.of()).build(everything().build(), 400);
    ContextStats stats = built.stats();

    assertEquals(2, stats.shapes());
    assertEquals(1, stats.shapesInView());
    assertEquals(1, stats.shapesSent());
    assertEquals(1, stats.peripheralClusters());
    assertEquals(1, stats.selected());
    assertEquals(0, stats.imageBytes());
    assertEquals(
        new ShapeStateStats(2, stats.shapeStateStats().bytes(), false), stats.shapeStateStats());
    assertEquals(List.of(), stats.cut());
    assertEquals(PartOutput.utf8Length(built.contextText()), stats.contextBytes());
    assertEquals(
        (400 + stats.contextBytes() + "draw a box".length()) / 4, stats.promptTokenEstimate());
    assertEquals(1L, stats.docVersion());
    assertFalse(stats.toJson().encode().contains("draw a box"), "no user content in the stats");
  }

  @Test
  void aPartOverTheTotalBudgetIsLeftOutWholeAndSmallerLaterPartsStillGoIn() {
    Inputs inputs = everything();
    List<io.vertx.core.json.JsonObject> records = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      records.add(geo("s" + i, 110 + i, 60, 10, 10));
    }
    inputs.board(board(records));
    Map<String, String> environment = new HashMap<>();
    environment.put("CANVAS_AGENT_CONFIG", "{\"context\":{\"totalBudgetBytes\":2048}}");
    environment.put("CANVAS_AGENT_SHAPE_STATE_LIMIT", "0");

    BuiltContext built = builder(environment).build(inputs.build(), 0);

    assertFalse(
        built.context().containsKey(ModelContext.SHAPES), "the shapes did not fit the total");
    assertTrue(built.stats().cut().contains("blurryShapes"));
    assertEquals(0, built.stats().shapesSent());
    assertTrue(built.context().containsKey(ModelContext.TODOS), "a later, smaller part still fit");
    assertTrue(PartOutput.utf8Length(built.contextText()) <= 2048);
  }

  @Test
  void aPartsOwnBudgetCutsItAndTheStatsSaySo() {
    Map<String, String> environment =
        Map.of("CANVAS_AGENT_CONFIG", "{\"context\":{\"budgets\":{\"todos\":10}}}");

    BuiltContext built = builder(environment).build(everything().build(), 0);

    assertFalse(built.context().containsKey(ModelContext.TODOS));
    assertEquals(List.of("todos"), built.stats().cut());
  }
}
