package dev.canvasagent.model.fake;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * {@code debug/fake}: a deterministic model for running and testing the server without an API key.
 * It streams a scripted scenario the way a real provider streams: text in fragments, each tool
 * call's arguments in fragments, then usage and a stop, paced by a timer.
 */
public final class FakeModel implements ModelProvider {
  public static final String MODEL = "debug/fake";
  private static final int MESSAGE_EXCERPT_CHARS = 80;

  private final Vertx vertx;
  private final FakeScenarios scenarios;

  public FakeModel(Vertx vertx, FakeScenarios scenarios) {
    this.vertx = vertx;
    this.scenarios = scenarios;
  }

  @Override
  public String id() {
    return "debug";
  }

  @Override
  public boolean serves(String model) {
    return MODEL.equals(model);
  }

  @Override
  public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    Deque<ModelEvent> script = script(scenarios.choose(request.userMessage()), request.userMessage());
    Playback playback = new Playback(script, events);
    playback.next();
    return playback;
  }

  private Deque<ModelEvent> script(FakeScenarios.Scenario scenario, String message) {
    Deque<ModelEvent> script = new ArrayDeque<>();
    for (String fragment : fragments(scenario.text())) {
      script.add(new ModelEvent.TextDelta(fragment));
    }
    String excerpt = message.length() > MESSAGE_EXCERPT_CHARS ? message.substring(0, MESSAGE_EXCERPT_CHARS) : message;
    int ordinal = 0;
    long outputChars = scenario.text().length();
    for (JsonObject call : scenario.calls()) {
      String callId = "fake_call_" + ordinal;
      String name = call.getString("name");
      JsonObject arguments = (JsonObject) substitute(call.getJsonObject("arguments", new JsonObject()), excerpt);
      String argumentsText = arguments.encode();
      outputChars += argumentsText.length();
      script.add(new ModelEvent.ToolCallStart(ordinal, callId, name));
      for (String fragment : fragments(argumentsText)) {
        script.add(new ModelEvent.ToolCallDelta(ordinal, callId, fragment));
      }
      script.add(new ModelEvent.ToolCallEnd(ordinal, callId, name, arguments));
      ordinal++;
    }
    if (scenario.error() != null) {
      script.add(new ModelEvent.Error(
          scenario.error().getString("type", "api_error"),
          scenario.error().getString("message", "scripted failure"),
          scenario.error().getBoolean("retryable", false)));
      return script;
    }
    script.add(new ModelEvent.Usage(message.length() / 4 + 1, outputChars / 4 + 1));
    script.add(new ModelEvent.Stop(ordinal > 0 ? "tool_use" : "end_turn"));
    return script;
  }

  private java.util.List<String> fragments(String text) {
    java.util.List<String> fragments = new java.util.ArrayList<>();
    for (int start = 0; start < text.length(); start += scenarios.chunkChars()) {
      fragments.add(text.substring(start, Math.min(text.length(), start + scenarios.chunkChars())));
    }
    return fragments;
  }

  private static Object substitute(Object value, String excerpt) {
    if (value instanceof String text) {
      return text.replace("${message}", excerpt);
    }
    if (value instanceof JsonObject object) {
      JsonObject copy = new JsonObject();
      object.forEach(entry -> copy.put(entry.getKey(), substitute(entry.getValue(), excerpt)));
      return copy;
    }
    if (value instanceof JsonArray array) {
      JsonArray copy = new JsonArray();
      array.forEach(item -> copy.add(substitute(item, excerpt)));
      return copy;
    }
    return value;
  }

  /** Plays the script one event per timer tick, on the caller's context. */
  private final class Playback implements ModelCall {
    private final Deque<ModelEvent> script;
    private final Consumer<ModelEvent> events;
    private boolean canceled;
    private long timerId = -1;

    Playback(Deque<ModelEvent> script, Consumer<ModelEvent> events) {
      this.script = script;
      this.events = events;
    }

    void next() {
      if (canceled || script.isEmpty()) {
        return;
      }
      timerId = vertx.setTimer(Math.max(1, scenarios.chunkDelayMs()), id -> {
        if (!canceled) {
          events.accept(script.poll());
          next();
        }
      });
    }

    @Override
    public void cancel() {
      canceled = true;
      vertx.cancelTimer(timerId);
    }
  }
}
