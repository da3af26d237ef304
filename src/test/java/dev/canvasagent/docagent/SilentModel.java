package dev.canvasagent.docagent;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.function.Consumer;

/** {@code test/silent}: never answers; records the cancel. */
final class SilentModel implements ModelProvider {
  static final String MODEL = "test/silent";
  private final Promise<Void> canceled = Promise.promise();

  @Override
  public String id() {
    return "silent";
  }

  @Override
  public boolean serves(String model) {
    return MODEL.equals(model);
  }

  @Override
  public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    return () -> canceled.tryComplete();
  }

  Future<Void> canceled() {
    return canceled.future();
  }
}
