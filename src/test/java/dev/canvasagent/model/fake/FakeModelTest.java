package dev.canvasagent.model.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelEvent.Stop;
import dev.canvasagent.model.ModelEvent.TextDelta;
import dev.canvasagent.model.ModelEvent.ToolCallDelta;
import dev.canvasagent.model.ModelEvent.ToolCallEnd;
import dev.canvasagent.model.ModelEvent.ToolCallStart;
import dev.canvasagent.model.ModelEvent.Usage;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.support.Await;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code debug/fake} streams a scenario of {@code conf/fake-model.json} (or the planner's answer) the
 * way a real provider streams: text in fragments, each tool call as start, argument fragments and
 * end, then usage and exactly one stop; or an error and nothing after it; and nothing at all once
 * canceled. A scripted scenario wins over the planner, and the planner over the fallback scenario.
 */
@ExtendWith(VertxExtension.class)
class FakeModelTest {
  static final FakeScenarios SCENARIOS = FakeScenarios.load();

  Vertx vertx;
  FakeModel model;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    this.model = new FakeModel(vertx, SCENARIOS);
  }

  static ModelRequest request(String message) {
    return new ModelRequest(FakeModel.MODEL, "You draw on a canvas.", message, new JsonArray());
  }

  static boolean terminal(ModelEvent event) {
    return event instanceof Stop || event instanceof ModelEvent.Error;
  }

  /** Every event of one call, up to and including its terminal one; streamed on a Vert.x context as the runner does. */
  Future<List<ModelEvent>> streamToEnd(String message) {
    return streamToEnd(model, request(message));
  }

  Future<List<ModelEvent>> streamToEnd(FakeModel model, ModelRequest request) {
    Context context = vertx.getOrCreateContext();
    Promise<List<ModelEvent>> ended = Promise.promise();
    List<ModelEvent> events = new ArrayList<>();
    context.runOnContext(
        start ->
            model.stream(
                request,
                event -> {
                  events.add(event);
                  if (terminal(event)) {
                    ended.complete(List.copyOf(events));
                  }
                }));
    return ended.future();
  }

  static <T extends ModelEvent> List<T> only(List<ModelEvent> events, Class<T> type) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void itServesOnlyDebugFake() {
    assertTrue(model.serves("debug/fake"));
    assertFalse(model.serves("anthropic/claude-sonnet-4-5"));
    assertEquals("debug", model.id());
  }

  @Test
  void textDeltasConcatenateToTheScenarioText() {
    String message = "a roadmap, please";
    List<ModelEvent> events = Await.result(streamToEnd(message));

    String text =
        only(events, TextDelta.class).stream().map(TextDelta::text).collect(Collectors.joining());
    assertEquals(SCENARIOS.fallback(message).text(), text);
    assertEquals("I'll sketch that on the board.", text);
    assertTrue(only(events, TextDelta.class).size() > 1, "the text arrives in fragments");
  }

  @Test
  void eachToolCallIsAStartItsArgumentFragmentsAndAnEndWithThoseArguments() {
    List<ModelEvent> events = Await.result(streamToEnd("a roadmap, please"));
    List<ModelEvent> calls =
        events.stream()
            .filter(
                e ->
                    e instanceof ToolCallStart
                        || e instanceof ToolCallDelta
                        || e instanceof ToolCallEnd)
            .toList();

    List<String> names = new ArrayList<>();
    int position = 0;
    int ordinal = 0;
    while (position < calls.size()) {
      ToolCallStart start = assertInstanceOf(ToolCallStart.class, calls.get(position++));
      assertEquals(ordinal, start.ordinal());
      StringBuilder arguments = new StringBuilder();
      int fragments = 0;
      while (calls.get(position) instanceof ToolCallDelta delta) {
        assertEquals(start.callId(), delta.callId());
        assertEquals(ordinal, delta.ordinal());
        arguments.append(delta.argumentsDelta());
        fragments++;
        position++;
      }
      ToolCallEnd end = assertInstanceOf(ToolCallEnd.class, calls.get(position++));
      assertTrue(fragments >= 1, "at least one argument fragment for " + start.name());
      assertEquals(start.callId(), end.callId());
      assertEquals(start.name(), end.name());
      assertEquals(
          new JsonObject(arguments.toString()), end.arguments(), "the fragments are the arguments");
      names.add(start.name());
      ordinal++;
    }
    assertEquals(List.of("think", "create_shape", "create_shape", "create_shape"), names);
    assertEquals(SCENARIOS.fallback("a roadmap, please").calls().size(), ordinal);
  }

  @Test
  void theMessageIsSubstitutedIntoTheArguments() {
    List<ModelEvent> events = Await.result(streamToEnd("a box for the Q3 roadmap"));

    ToolCallEnd labeledBox = only(events, ToolCallEnd.class).get(1);
    assertEquals("a box for the Q3 roadmap", labeledBox.arguments().getString("text"));
    assertFalse(events.toString().contains("${message}"), "no placeholder is left in any event");
  }

  @Test
  void aLongMessageIsCutToItsFirstEightyCharacters() {
    String message = "x".repeat(200);
    List<ModelEvent> events = Await.result(streamToEnd(message));

    assertEquals(
        "x".repeat(80), only(events, ToolCallEnd.class).get(1).arguments().getString("text"));
  }

  @Test
  void theStreamEndsWithUsageThenExactlyOneStop() {
    List<ModelEvent> events = Await.result(streamToEnd("a roadmap, please"));

    assertInstanceOf(Usage.class, events.get(events.size() - 2));
    Stop stop = assertInstanceOf(Stop.class, events.get(events.size() - 1));
    assertEquals("tool_use", stop.reason());
    assertEquals(1, only(events, Stop.class).size());
    assertEquals(1, only(events, Usage.class).size());
    assertTrue(only(events, ModelEvent.Error.class).isEmpty());
    Usage usage = only(events, Usage.class).get(0);
    assertTrue(usage.inputTokens() > 0 && usage.outputTokens() > 0, usage.toString());
  }

  @Test
  void theFailScenarioEndsWithOneErrorAndNoStop() {
    List<ModelEvent> events = Await.result(streamToEnd("/fail now"));

    ModelEvent.Error error =
        assertInstanceOf(ModelEvent.Error.class, events.get(events.size() - 1));
    assertEquals("overloaded_error", error.errorType());
    assertTrue(error.retryable());
    assertEquals(1, only(events, ModelEvent.Error.class).size());
    assertTrue(only(events, Stop.class).isEmpty());
    assertTrue(only(events, Usage.class).isEmpty());
    assertEquals(
        "Let me look at the board",
        only(events, TextDelta.class).stream().map(TextDelta::text).collect(Collectors.joining()));
  }

  @Test
  void afterCancelNoMoreEventsArrive() {
    int wholeScript = Await.result(streamToEnd("a roadmap, please")).size();
    int cancelAfter = 3;

    Context context = vertx.getOrCreateContext();
    List<ModelEvent> received = new ArrayList<>();
    Promise<List<ModelEvent>> settled = Promise.promise();
    context.runOnContext(
        start -> {
          ModelCall[] call = new ModelCall[1];
          call[0] =
              model.stream(
                  request("a roadmap, please"),
                  event -> {
                    received.add(event);
                    if (received.size() == cancelAfter) {
                      call[0].cancel();
                      // Long enough for the whole script to have played twice over had it not
                      // stopped.
                      long wholeScriptMs =
                          2L * wholeScript * Math.max(1, SCENARIOS.chunkDelayMs()) + 50;
                      vertx.setTimer(
                          wholeScriptMs, done -> settled.complete(List.copyOf(received)));
                    }
                  });
        });

    List<ModelEvent> events = Await.result(settled.future());
    assertEquals(cancelAfter, events.size(), "nothing after cancel: " + events);
    assertTrue(
        events.stream().noneMatch(FakeModelTest::terminal),
        "a canceled call has no terminal event");
  }

  @Test
  void aCallCanceledBeforeItsFirstEventSendsNothing() {
    int wholeScript = Await.result(streamToEnd("a roadmap, please")).size();

    Context context = vertx.getOrCreateContext();
    List<ModelEvent> received = new ArrayList<>();
    Promise<List<ModelEvent>> settled = Promise.promise();
    context.runOnContext(
        start -> {
          model.stream(request("a roadmap, please"), received::add).cancel();
          long wholeScriptMs = 2L * wholeScript * Math.max(1, SCENARIOS.chunkDelayMs()) + 50;
          vertx.setTimer(wholeScriptMs, done -> settled.complete(List.copyOf(received)));
        });

    assertEquals(List.of(), Await.result(settled.future()));
  }

  static List<String> toolNames(List<ModelEvent> events) {
    return only(events, ToolCallEnd.class).stream().map(ToolCallEnd::name).toList();
  }

  @Test
  void aScriptedScenarioWinsOverThePlanner() {
    // "/clear" is a scripted scenario; "clear" alone is the planner's command: both clear the
    // board.
    assertEquals(List.of("clear"), toolNames(Await.result(streamToEnd("/clear"))));
    List<ModelEvent> poster = Await.result(streamToEnd("draw a brutalist poster"));
    assertEquals(
        SCENARIOS.scripted("/poster").orElseThrow().calls().size(),
        toolNames(poster).size(),
        "the poster's trigger phrase plays the poster, although \"draw …\" is a planner verb");
  }

  @Test
  void aPlainCommandIsPlannedAndStreamedLikeAScenario() {
    List<ModelEvent> events = Await.result(streamToEnd("draw a blue rectangle labeled A"));

    assertEquals(List.of("create_shape"), toolNames(events));
    JsonObject arguments = only(events, ToolCallEnd.class).get(0).arguments();
    assertEquals("rectangle", arguments.getString("type"));
    assertEquals("A", arguments.getString("text"));
    assertEquals("blue", arguments.getJsonObject("props").getString("color"));
    String streamed =
        only(events, ToolCallDelta.class).stream()
            .map(ToolCallDelta::argumentsDelta)
            .collect(Collectors.joining());
    assertEquals(arguments, new JsonObject(streamed));
    assertTrue(only(events, ToolCallDelta.class).size() > 1, "the arguments arrive in fragments");
    assertEquals(
        "Drawing a blue rectangle labeled “A”.",
        only(events, TextDelta.class).stream().map(TextDelta::text).collect(Collectors.joining()));
    assertInstanceOf(Usage.class, events.get(events.size() - 2));
    assertEquals("tool_use", assertInstanceOf(Stop.class, events.get(events.size() - 1)).reason());
  }

  @Test
  void aCommandThePlannerCannotFollowIsAnsweredInWordsWithNoAction() {
    List<ModelEvent> events = Await.result(streamToEnd("draw a roadmap"));

    assertEquals(List.of(), toolNames(events));
    String text =
        only(events, TextDelta.class).stream().map(TextDelta::text).collect(Collectors.joining());
    assertTrue(text.startsWith("I didn't understand “draw a roadmap”."), text);
    assertTrue(text.contains("right|left|up|down [by N]") && text.contains("/poster"), text);
    assertEquals("end_turn", assertInstanceOf(Stop.class, events.get(events.size() - 1)).reason());
  }

  @Test
  void aFollowUpThatNoScenarioOrCommandMatchesAddsNothing() {
    JsonObject followUp =
        new JsonObject()
            .put("message", "label the arrow")
            .put("followUp", new JsonObject().put("number", 1).put("reason", "add_detail"));
    ModelRequest request =
        new ModelRequest(
            FakeModel.MODEL,
            "system",
            "",
            "label the arrow",
            null,
            new JsonArray(),
            null,
            followUp);

    List<ModelEvent> events = Await.result(streamToEnd(model, request));

    assertEquals(List.of(), toolNames(events), "no fallback drawing on a follow-up");
    assertEquals(
        FakeModel.NOTHING_TO_ADD,
        only(events, TextDelta.class).stream().map(TextDelta::text).collect(Collectors.joining()));
    ModelRequest scripted =
        new ModelRequest(
            FakeModel.MODEL,
            "system",
            "",
            "/clear",
            null,
            new JsonArray(),
            null,
            followUp.copy().put("message", "/clear"));
    assertEquals(
        List.of("clear"),
        toolNames(Await.result(streamToEnd(model, scripted))),
        "scenarios still answer follow-ups");
  }

  @Test
  void theContextMessageIsTheCommandWhenTheRunnerGivesOne() {
    JsonObject context = new JsonObject().put("message", "draw a star");
    ModelRequest request =
        new ModelRequest(
            FakeModel.MODEL,
            "system",
            "",
            "draw a star\n\nMy viewport: {}",
            null,
            new JsonArray(),
            null,
            context);
    List<ModelEvent> events = Await.result(streamToEnd(model, request));
    assertEquals("star", only(events, ToolCallEnd.class).get(0).arguments().getString("type"));

    // Without one, the runner's notes after a blank line are not part of the command.
    ModelRequest withNotes =
        new ModelRequest(
            FakeModel.MODEL, "system", "draw a star\n\nMy viewport: {\"x\":0}", new JsonArray());
    assertEquals(
        "star",
        only(Await.result(streamToEnd(model, withNotes)), ToolCallEnd.class)
            .get(0)
            .arguments()
            .getString("type"));
  }

  @Test
  void withNoDelayEveryEventStillArrivesLaterOnTheCallersContext() {
    FakeModel fast = new FakeModel(vertx, SCENARIOS.withChunkDelayMs(0));
    Context context = vertx.getOrCreateContext();
    Promise<List<ModelEvent>> ended = Promise.promise();
    List<ModelEvent> events = new ArrayList<>();
    List<Boolean> onTheContext = new ArrayList<>();
    context.runOnContext(
        start -> {
          fast.stream(
              request("/tour"),
              event -> {
                events.add(event);
                onTheContext.add(Vertx.currentContext() == context);
                if (terminal(event)) {
                  ended.complete(List.copyOf(events));
                }
              });
          // Nothing is delivered on the caller's stack: the stream starts after stream() returns.
          if (!events.isEmpty()) {
            ended.tryFail("an event arrived before stream() returned");
          }
        });

    List<ModelEvent> all = Await.result(ended.future());
    assertTrue(all.size() > 100, "the whole tour: " + all.size());
    assertTrue(
        onTheContext.stream().allMatch(Boolean::booleanValue),
        "every event on the caller's context");
  }

  @Test
  void aCallWithNoDelayCanStillBeCanceledBetweenEvents() {
    FakeModel fast = new FakeModel(vertx, SCENARIOS.withChunkDelayMs(0));
    Context context = vertx.getOrCreateContext();
    List<ModelEvent> received = new ArrayList<>();
    Promise<List<ModelEvent>> settled = Promise.promise();
    context.runOnContext(
        start -> {
          ModelCall[] call = new ModelCall[1];
          call[0] =
              fast.stream(
                  request("/tour"),
                  event -> {
                    received.add(event);
                    if (received.size() == 5) {
                      call[0].cancel();
                      vertx.setTimer(100, done -> settled.complete(List.copyOf(received)));
                    }
                  });
        });
    assertEquals(5, Await.result(settled.future()).size());
  }

  @Test
  void scenarioFilesMustHaveAFallback() {
    JsonObject noFallback =
        new JsonObject()
            .put(
                "scenarios",
                new JsonArray().add(new JsonObject().put("name", "only").put("match", "^/only")));
    IllegalArgumentException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> FakeScenarios.fromJson(noFallback));
    assertTrue(refused.getMessage().contains("fallback"), refused.getMessage());
  }

  @Test
  void theHelpListsEveryScenarioThatHasAHelpLine() {
    List<String> lines = SCENARIOS.helpLines();
    assertTrue(lines.stream().anyMatch(line -> line.startsWith("/poster")), lines.toString());
    assertTrue(lines.stream().anyMatch(line -> line.startsWith("/tour")), lines.toString());
    String help =
        only(Await.result(streamToEnd("help")), TextDelta.class).stream()
            .map(TextDelta::text)
            .collect(Collectors.joining());
    lines.forEach(line -> assertTrue(help.contains(line), line));
  }
}
