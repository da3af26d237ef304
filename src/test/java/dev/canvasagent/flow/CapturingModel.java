package dev.canvasagent.flow;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code test/capture}: a model for tests that keeps every request it is asked, says one {@code think}
 * and stops. What a run's model really got, seen from the model's side.
 */
final class CapturingModel implements ModelProvider {
  static final String MODEL = "test/capture";
  static final String THOUGHT = "Looking at the board first.";

  private final Vertx vertx;
  private final List<ModelRequest> requests = new ArrayList<>();

  CapturingModel(Vertx vertx) {
    this.vertx = vertx;
  }

  @Override
  public String id() {
    return "test";
  }

  @Override
  public boolean serves(String model) {
    return MODEL.equals(model);
  }

  @Override
  public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    synchronized (requests) {
      requests.add(request);
    }
    vertx.runOnContext(
        go -> {
          events.accept(new ModelEvent.ToolCallStart(0, "call_0", "think"));
          events.accept(
              new ModelEvent.ToolCallEnd(
                  0, "call_0", "think", new JsonObject().put("text", THOUGHT)));
          events.accept(new ModelEvent.Stop("tool_calls"));
        });
    return () -> {};
  }

  List<ModelRequest> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }
}
