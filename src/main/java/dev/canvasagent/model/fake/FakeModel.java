package dev.canvasagent.model.fake;

import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.fake.planner.CommandPlanner;
import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * {@code debug/fake}: a deterministic model for running and testing the server without an API key.
 * A message gets, in this order: the first scripted scenario that matches it; else the planner's
 * answer, when the message is a plain command ("draw a blue rectangle labeled A", "move it right");
 * else the fallback scenario. A follow-up the agent asked for itself (context {@code followUp}) gets
 * only a scripted scenario or the planner: the fallback would draw again on every follow-up, which
 * no careful model does, so it answers that there is nothing to add. The answer is streamed the way a real provider streams: text in
 * fragments, each tool call's arguments in fragments, then usage and a stop, paced by a timer.
 */
public final class FakeModel implements ModelProvider {
  public static final String MODEL = "debug/fake";
  private static final int MESSAGE_EXCERPT_CHARS = 80;

  private final Vertx vertx;
  private final FakeScenarios scenarios;
  private final CommandPlanner planner;

  public FakeModel(Vertx vertx, FakeScenarios scenarios) {
    this.vertx = vertx;
    this.scenarios = scenarios;
    this.planner = new CommandPlanner(scenarios.helpLines());
    CanvasMetrics.of(vertx).providerKnown(id());
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
    CanvasMetrics.of(vertx).providerCall(id());
    String message = message(request);
    Playback playback =
        new Playback(
            vertx,
            FakeStream.events(answer(request, message), message, scenarios.chunkChars()),
            events,
            scenarios.chunkDelayMs());
    playback.next();
    return playback;
  }

  static final String NOTHING_TO_ADD = "Nothing to add: the board already does what was asked.";

  /**
   * A {@code /doc-fix} command gets its scripted document loop ({@link DocFix}). After tool results (a tool loop's later step), a summary of them in words, so a loop over {@code
   * debug/fake} ends after one round of calls; otherwise the scripted scenario, else the planner,
   * else the fallback scenario (or, for a follow-up, no action).
   */
  FakeAnswer answer(ModelRequest request, String message) {
    var docFix = DocFix.answer(request, message);
    if (docFix.isPresent()) {
      return docFix.get();
    }
    if (!request.turns().isEmpty()
        && request.turns().get(request.turns().size() - 1) instanceof Turn.ToolResults results) {
      return FakeAnswer.say(summary(results));
    }
    String excerpt =
        message.length() > MESSAGE_EXCERPT_CHARS
            ? message.substring(0, MESSAGE_EXCERPT_CHARS)
            : message;
    boolean followUp = request.context().containsKey(ModelContext.FOLLOW_UP);
    return scenarios
        .scripted(message)
        .map(scenario -> scenario.answer(excerpt))
        .or(() -> planner.plan(message, request.context()))
        .orElseGet(
            () ->
                followUp
                    ? FakeAnswer.say(NOTHING_TO_ADD)
                    : scenarios.fallback(message).answer(excerpt));
  }

  static String summary(Turn.ToolResults results) {
    long failed = results.results().stream().filter(Turn.ToolResult::isError).count();
    int count = results.results().size();
    String ran = "Done: " + count + (count == 1 ? " tool call ran" : " tool calls ran");
    if (failed == 0) {
      return ran + ".";
    }
    String firstError =
        results.results().stream()
            .filter(Turn.ToolResult::isError)
            .findFirst()
            .map(Turn.ToolResult::error)
            .orElse("");
    return ran + ", " + failed + " failed (" + firstError + ").";
  }

  /**
   * What the person asked: the context's {@code message} when the runner gave one; otherwise the user
   * turn up to its first blank line (the runner may append its own notes, such as the viewport, after one).
   */
  static String message(ModelRequest request) {
    String fromContext = request.context().getString(ModelContext.MESSAGE);
    if (fromContext != null && !fromContext.isBlank()) {
      return fromContext.strip();
    }
    String turn = request.userMessage().strip();
    int notes = turn.indexOf("\n\n");
    return notes < 0 ? turn : turn.substring(0, notes).strip();
  }
}
