package dev.canvasagent.model.loop;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tool loop under way: its {@link #result()}, and {@link #interrupt()}. All state is touched on
 * the loop's context only; {@code interrupt} may be called from anywhere.
 */
public final class ToolLoopRun {
  private static final Logger LOG = LoggerFactory.getLogger(ToolLoopRun.class);

  private final Context context;
  private final ModelProvider provider;
  private final Function<Turn.ToolCall, Future<JsonObject>> executor;
  private final int maxSteps;
  private final ToolLoopListener listener;
  private final Promise<ToolLoopResult> result = Promise.promise();
  private final List<ToolLoopResult.Executed> executed = new ArrayList<>();
  private final List<Turn> turns = new ArrayList<>();
  private volatile boolean interrupted;
  private ModelRequest request;
  private int step;
  private String lastText = "";
  private long inputTokens;
  private long outputTokens;
  private long cacheReadTokens;
  private long cacheWriteTokens;
  private long reasoningTokens;
  private ModelCall pendingCall;

  ToolLoopRun(
      Context context,
      ModelProvider provider,
      Function<Turn.ToolCall, Future<JsonObject>> executor,
      int maxSteps,
      ToolLoopListener listener,
      ModelRequest first) {
    this.context = context;
    this.provider = provider;
    this.executor = executor;
    this.maxSteps = maxSteps;
    this.listener = listener;
    this.request = first;
  }

  /** Completes once, when the loop ends; never fails. */
  public Future<ToolLoopResult> result() {
    return result.future();
  }

  /**
   * Stops the loop: a model call under way is canceled at once; a tool call under way finishes (its
   * result is kept) but no further tool runs and the model is not asked again.
   */
  public void interrupt() {
    interrupted = true;
    context.runOnContext(
        now -> {
          if (pendingCall != null) {
            ModelCall call = pendingCall;
            pendingCall = null;
            call.cancel();
            finish(ToolLoopResult.Stop.INTERRUPTED, List.of(), null);
          }
        });
  }

  void nextStep() {
    if (interrupted) {
      finish(ToolLoopResult.Stop.INTERRUPTED, List.of(), null);
      return;
    }
    step++;
    int current = step;
    listener.stepStarted(current);
    StepAnswer answer = new StepAnswer();
    boolean[] answered = new boolean[1];
    ModelCall call;
    try {
      // on the loop's context: a provider delivers on its caller's (ProvidersOverHttpTest checks
      // the HTTP ones)
      call =
          provider.stream(
              request,
              event -> {
                if (answered[0] || result.future().isComplete()) {
                  return;
                }
                listener.modelEvent(current, event);
                if (answer.accept(event)) {
                  answered[0] = true;
                  pendingCall = null;
                  answered(current, answer);
                }
              });
    } catch (RuntimeException e) {
      finish(
          ToolLoopResult.Stop.ERROR,
          List.of(),
          new ModelEvent.Error("provider_unavailable", String.valueOf(e.getMessage()), false));
      return;
    }
    if (!answered[0] && !result.future().isComplete()) {
      pendingCall = call;
    }
  }

  private void answered(int current, StepAnswer answer) {
    addUsage(answer.usage());
    if (answer.error() != null) {
      finish(ToolLoopResult.Stop.ERROR, List.of(), answer.error());
      return;
    }
    Turn.Assistant turn = answer.turn();
    lastText = turn.text();
    turns.add(turn);
    listener.stepAnswered(current, turn);
    LOG.atDebug()
        .addKeyValue("step", current)
        .addKeyValue("calls", turn.calls().size())
        .log("tool_loop.step");
    if (turn.calls().isEmpty()) {
      finish(ToolLoopResult.Stop.DONE, List.of(), null);
    } else if (interrupted) {
      finish(ToolLoopResult.Stop.INTERRUPTED, turn.calls(), null);
    } else if (current >= maxSteps) {
      finish(ToolLoopResult.Stop.STEP_CAP, turn.calls(), null);
    } else {
      runCall(current, turn, 0, new ArrayList<>());
    }
  }

  private void runCall(int current, Turn.Assistant turn, int index, List<Turn.ToolResult> results) {
    List<Turn.ToolCall> calls = turn.calls();
    if (index == calls.size()) {
      Turn.ToolResults returned = new Turn.ToolResults(results);
      turns.add(returned);
      request = request.plus(List.of(turn, returned));
      nextStep();
      return;
    }
    if (interrupted) {
      if (!results.isEmpty()) {
        turns.add(new Turn.ToolResults(results));
      }
      finish(ToolLoopResult.Stop.INTERRUPTED, calls.subList(index, calls.size()), null);
      return;
    }
    Turn.ToolCall call = calls.get(index);
    listener.toolCalled(current, call);
    Future<JsonObject> running;
    try {
      running = executor.apply(call);
    } catch (RuntimeException e) {
      running = Future.failedFuture(e);
    }
    if (running == null) {
      running = Future.failedFuture("the tool returned nothing");
    }
    // the executor may complete on another thread (a worker, a database client)
    running.onComplete(
        outcome ->
            context.runOnContext(
                back -> {
                  Turn.ToolResult returned = result(call, outcome);
                  executed.add(new ToolLoopResult.Executed(current, call, returned));
                  results.add(returned);
                  listener.toolReturned(current, returned);
                  runCall(current, turn, index + 1, results);
                }));
  }

  private static Turn.ToolResult result(Turn.ToolCall call, AsyncResult<JsonObject> outcome) {
    if (outcome.succeeded()) {
      return Turn.ToolResult.success(
          call, outcome.result() == null ? new JsonObject() : outcome.result());
    }
    Throwable cause = outcome.cause();
    String message =
        cause.getMessage() == null || cause.getMessage().isBlank()
            ? cause.getClass().getSimpleName()
            : cause.getMessage();
    return Turn.ToolResult.failure(call, message);
  }

  private void addUsage(ModelEvent.Usage usage) {
    if (usage != null) {
      inputTokens += usage.inputTokens();
      outputTokens += usage.outputTokens();
      cacheReadTokens += usage.cacheReadTokens();
      cacheWriteTokens += usage.cacheWriteTokens();
      reasoningTokens += usage.reasoningTokens();
    }
  }

  private void finish(
      ToolLoopResult.Stop stop, List<Turn.ToolCall> notExecuted, ModelEvent.Error error) {
    if (result.future().isComplete()) {
      return;
    }
    pendingCall = null;
    LOG.atInfo()
        .addKeyValue("stop", stop.wireName())
        .addKeyValue("steps", step)
        .addKeyValue("toolCalls", executed.size())
        .addKeyValue("notExecuted", notExecuted.size())
        .addKeyValue("errorType", error == null ? null : error.errorType())
        .log("tool_loop.end");
    result.complete(
        new ToolLoopResult(
            stop,
            lastText,
            step,
            executed,
            notExecuted,
            new ModelEvent.Usage(
                inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens),
            error,
            turns));
  }
}
