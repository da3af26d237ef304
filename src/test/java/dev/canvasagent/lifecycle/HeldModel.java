package dev.canvasagent.lifecycle;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * {@code test/held}: holds its first answer until {@link #release()}, then says it is done; records
 * that it was asked and that it was canceled. A document-agent loop that is going for as long as the
 * test wants, so that a drain meets it running.
 */
final class HeldModel implements ModelProvider {
  static final String MODEL = "test/held";
  private final Vertx vertx;
  private final Promise<Consumer<ModelEvent>> asked = Promise.promise();
  private final Promise<Void> canceled = Promise.promise();

  HeldModel(Vertx vertx) {
    this.vertx = vertx;
  }

  @Override
  public String id() {
    return "held";
  }

  @Override
  public boolean serves(String model) {
    return MODEL.equals(model);
  }

  @Override
  public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    asked.tryComplete(events);
    return () -> canceled.tryComplete();
  }

  /** The loop has asked the model: it is running. */
  Future<Void> asked() {
    return asked.future().mapEmpty();
  }

  Future<Void> canceled() {
    return canceled.future();
  }

  /** The held answer: a last word, and the end of the loop. */
  void release() {
    asked
        .future()
        .onSuccess(
            events ->
                vertx.runOnContext(
                    now -> {
                      events.accept(new ModelEvent.TextDelta("Nothing to change."));
                      events.accept(new ModelEvent.Stop("end_turn", "end_turn"));
                    }));
  }
}
