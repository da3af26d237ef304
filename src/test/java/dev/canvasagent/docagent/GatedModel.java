package dev.canvasagent.docagent;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * {@code test/gated}: step 1 reads the whole document; step 2 waits, holding its answer (a write of
 * line 1) until {@link #release()}, and records a cancel. For preempting a loop between its steps.
 */
final class GatedModel implements ModelProvider {
  static final String MODEL = "test/gated";
  private final Vertx vertx;
  private final Promise<Void> secondAsked = Promise.promise();
  private final Promise<Void> canceled = Promise.promise();
  private volatile Consumer<ModelEvent> held;
  private int calls;

  GatedModel(Vertx vertx) {
    this.vertx = vertx;
  }

  @Override
  public String id() {
    return "gated";
  }

  @Override
  public boolean serves(String model) {
    return MODEL.equals(model);
  }

  @Override
  public synchronized ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    calls++;
    if (calls == 1) {
      vertx.runOnContext(
          now -> {
            events.accept(
                new ModelEvent.ToolCallEnd(
                    0, "call-read", "canvas_read_all", new JsonObject(), null));
            events.accept(new ModelEvent.Stop("tool_use", "tool_use"));
          });
    } else {
      held = events;
      secondAsked.tryComplete();
    }
    return () -> canceled.tryComplete();
  }

  Future<Void> secondAsked() {
    return secondAsked.future();
  }

  Future<Void> canceled() {
    return canceled.future();
  }

  /** Lets step 2 answer: a write of line 1, as if the model had not heard of the preemption. */
  void release() {
    Consumer<ModelEvent> events = held;
    vertx.runOnContext(
        now -> {
          events.accept(
              new ModelEvent.ToolCallEnd(
                  0,
                  "call-write",
                  "canvas_replace_lines",
                  new JsonObject()
                      .put("start_line", 1)
                      .put("end_line", 1)
                      .put("new_content", "late agent line"),
                  null));
          events.accept(new ModelEvent.Stop("tool_use", "tool_use"));
        });
  }
}
