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
 * {@code debug/fake} streams a scenario of {@code conf/fake-model.json} the way a real provider
 * streams: text in fragments, each tool call as start, argument fragments and end, then usage and
 * exactly one stop; or an error and nothing after it; and nothing at all once canceled.
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
    Context context = vertx.getOrCreateContext();
    Promise<List<ModelEvent>> ended = Promise.promise();
    List<ModelEvent> events = new ArrayList<>();
    context.runOnContext(start -> model.stream(request(message), event -> {
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
    String message = "draw a roadmap";
    List<ModelEvent> events = Await.result(streamToEnd(message));

    String text = only(events, TextDelta.class).stream().map(TextDelta::text).collect(Collectors.joining());
    assertEquals(SCENARIOS.choose(message).text(), text);
    assertEquals("I'll sketch that on the board.", text);
    assertTrue(only(events, TextDelta.class).size() > 1, "the text arrives in fragments");
  }

  @Test
  void eachToolCallIsAStartItsArgumentFragmentsAndAnEndWithThoseArguments() {
    List<ModelEvent> events = Await.result(streamToEnd("draw a roadmap"));
    List<ModelEvent> calls = events.stream()
        .filter(e -> e instanceof ToolCallStart || e instanceof ToolCallDelta || e instanceof ToolCallEnd)
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
      assertEquals(new JsonObject(arguments.toString()), end.arguments(), "the fragments are the arguments");
      names.add(start.name());
      ordinal++;
    }
    assertEquals(List.of("think", "create_shape", "create_shape", "create_shape"), names);
    assertEquals(SCENARIOS.choose("draw a roadmap").calls().size(), ordinal);
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

    assertEquals("x".repeat(80), only(events, ToolCallEnd.class).get(1).arguments().getString("text"));
  }

  @Test
  void theStreamEndsWithUsageThenExactlyOneStop() {
    List<ModelEvent> events = Await.result(streamToEnd("draw a roadmap"));

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

    ModelEvent.Error error = assertInstanceOf(ModelEvent.Error.class, events.get(events.size() - 1));
    assertEquals("overloaded_error", error.errorType());
    assertTrue(error.retryable());
    assertEquals(1, only(events, ModelEvent.Error.class).size());
    assertTrue(only(events, Stop.class).isEmpty());
    assertTrue(only(events, Usage.class).isEmpty());
    assertEquals("Let me look at the board",
        only(events, TextDelta.class).stream().map(TextDelta::text).collect(Collectors.joining()));
  }

  @Test
  void afterCancelNoMoreEventsArrive() {
    int wholeScript = Await.result(streamToEnd("draw a roadmap")).size();
    int cancelAfter = 3;

    Context context = vertx.getOrCreateContext();
    List<ModelEvent> received = new ArrayList<>();
    Promise<List<ModelEvent>> settled = Promise.promise();
    context.runOnContext(start -> {
      ModelCall[] call = new ModelCall[1];
      call[0] = model.stream(request("draw a roadmap"), event -> {
        received.add(event);
        if (received.size() == cancelAfter) {
          call[0].cancel();
          // Long enough for the whole script to have played twice over had it not stopped.
          long wholeScriptMs = 2L * wholeScript * Math.max(1, SCENARIOS.chunkDelayMs()) + 50;
          vertx.setTimer(wholeScriptMs, done -> settled.complete(List.copyOf(received)));
        }
      });
    });

    List<ModelEvent> events = Await.result(settled.future());
    assertEquals(cancelAfter, events.size(), "nothing after cancel: " + events);
    assertTrue(events.stream().noneMatch(FakeModelTest::terminal), "a canceled call has no terminal event");
  }

  @Test
  void aCallCanceledBeforeItsFirstEventSendsNothing() {
    int wholeScript = Await.result(streamToEnd("draw a roadmap")).size();

    Context context = vertx.getOrCreateContext();
    List<ModelEvent> received = new ArrayList<>();
    Promise<List<ModelEvent>> settled = Promise.promise();
    context.runOnContext(start -> {
      model.stream(request("draw a roadmap"), received::add).cancel();
      long wholeScriptMs = 2L * wholeScript * Math.max(1, SCENARIOS.chunkDelayMs()) + 50;
      vertx.setTimer(wholeScriptMs, done -> settled.complete(List.copyOf(received)));
    });

    assertEquals(List.of(), Await.result(settled.future()));
  }
}
