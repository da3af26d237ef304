package dev.canvasagent.docagent;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.fake.FakeModel;
import dev.canvasagent.model.fake.FakeScenarios;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** {@code test/recorded}: answers as {@code debug/fake} does and keeps every request it was asked. */
final class RecordingModel implements ModelProvider {
  static final String MODEL = "test/recorded";
  private final FakeModel fake;
  private final List<ModelRequest> requests = new ArrayList<>();

  RecordingModel(Vertx vertx) {
    this.fake = new FakeModel(vertx, FakeScenarios.load());
  }

  @Override
  public String id() {
    return "recorded";
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
    return fake.stream(request, events);
  }

  List<ModelRequest> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** Every user-side text of a request, in order: the first user message, then each later user turn. */
  static List<String> userTexts(ModelRequest request) {
    List<String> texts = new ArrayList<>(List.of(request.userMessage()));
    request.turns().stream()
        .filter(Turn.User.class::isInstance)
        .map(turn -> ((Turn.User) turn).text())
        .forEach(texts::add);
    return texts;
  }
}
