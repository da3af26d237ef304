package dev.canvasagent.model.http;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** Calls a provider on a Vert.x context and collects what it streams; summarizes an answer for comparison. */
final class ProviderCalls {
  private ProviderCalls() {}

  static final ModelRequest.Image SCREENSHOT =
      new ModelRequest.Image("image/png", "iVBORw0KGgoAAAANSUhEUg==");

  static ModelRequest request(String model) {
    return new ModelRequest(
        model,
        "You draw on a whiteboard.",
        "Viewport: {x:0,y:0,w:1200,h:800}",
        "draw two shapes",
        SCREENSHOT,
        ActionCatalog.standard().describe(),
        new ModelRequest.Sampling(0.3, 1024),
        new JsonObject());
  }

  /** What a call streamed, and the call (for its retry count). */
  record Outcome(List<ModelEvent> events, ModelCall call) {
    ModelEvent last() {
      return events.get(events.size() - 1);
    }
  }

  /** Streams until the terminal event. */
  static Future<Outcome> run(Vertx vertx, ModelProvider provider, ModelRequest request) {
    return run(vertx, provider, request, (event, call) -> {});
  }

  /** Streams until the terminal event; {@code onEvent} sees each event with the call as it arrives. */
  static Future<Outcome> run(
      Vertx vertx,
      ModelProvider provider,
      ModelRequest request,
      BiConsumer<ModelEvent, ModelCall> onEvent) {
    Promise<Outcome> done = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(
            go -> {
              List<ModelEvent> events = new ArrayList<>();
              ModelCall[] call = new ModelCall[1];
              call[0] =
                  provider.stream(
                      request,
                      event -> {
                        events.add(event);
                        onEvent.accept(event, call[0]);
                        if (event instanceof ModelEvent.Stop || event instanceof ModelEvent.Error) {
                          done.tryComplete(new Outcome(events, call[0]));
                        }
                      });
            });
    return done.future();
  }

  /** Text, finished calls (name and arguments), stop reason and tokens of an answer. */
  static JsonObject summary(List<ModelEvent> events) {
    StringBuilder text = new StringBuilder();
    JsonArray calls = new JsonArray();
    JsonObject summary = new JsonObject();
    for (ModelEvent event : events) {
      if (event instanceof ModelEvent.TextDelta delta) {
        text.append(delta.text());
      } else if (event instanceof ModelEvent.ToolCallEnd end) {
        calls.add(new JsonObject().put("name", end.name()).put("arguments", end.arguments()));
      } else if (event instanceof ModelEvent.Usage usage) {
        summary.put(
            "usage",
            new JsonObject()
                .put("inputTokens", usage.inputTokens())
                .put("outputTokens", usage.outputTokens()));
      } else if (event instanceof ModelEvent.Stop stop) {
        summary.put("stop", stop.reason());
      } else if (event instanceof ModelEvent.Error error) {
        summary.put("error", error.errorType());
      }
    }
    return summary.put("text", text.toString()).put("calls", calls);
  }

  /** The events with generated call ids renamed in order of appearance, for comparing two runs. */
  static List<ModelEvent> comparable(List<ModelEvent> events) {
    Map<String, String> ids = new HashMap<>();
    List<ModelEvent> out = new ArrayList<>();
    for (ModelEvent event : events) {
      if (event instanceof ModelEvent.ToolCallStart start) {
        out.add(
            new ModelEvent.ToolCallStart(
                start.ordinal(), rename(start.callId(), ids), start.name()));
      } else if (event instanceof ModelEvent.ToolCallDelta delta) {
        out.add(
            new ModelEvent.ToolCallDelta(
                delta.ordinal(),
                rename(delta.callId(), ids),
                delta.argumentsDelta(),
                delta.synthetic()));
      } else if (event instanceof ModelEvent.ToolCallEnd end) {
        out.add(
            new ModelEvent.ToolCallEnd(
                end.ordinal(), rename(end.callId(), ids), end.name(), end.arguments()));
      } else {
        out.add(event);
      }
    }
    return out;
  }

  private static String rename(String id, Map<String, String> ids) {
    return id.startsWith("gemini_") ? ids.computeIfAbsent(id, k -> "generated-" + ids.size()) : id;
  }

  static byte[] resource(String name) {
    try (InputStream in = ProviderCalls.class.getResourceAsStream("/providers/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource providers/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
