package dev.canvasagent.model.loop;

import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.function.Function;

/**
 * A non-streamed tool loop: ask the model, run the tool calls of its answer one after the other,
 * send the answer and the results back, and repeat until an answer has no tool calls, the step cap
 * is reached, someone interrupts, or the provider fails. Each answer is still streamed from the
 * provider, but only its assembled turn matters to the loop.
 *
 * <p>{@code executor} runs one call and returns its result object; a failed future (or a thrown
 * exception) becomes an error result that the model reads. {@code maxSteps} caps how many times the
 * model is asked; the calls of the answer that reaches the cap are not run.
 */
public final class ToolLoop {
  private final ModelProvider provider;
  private final Function<Turn.ToolCall, Future<JsonObject>> executor;
  private final int maxSteps;
  private final ToolLoopListener listener;

  public ToolLoop(
      ModelProvider provider,
      Function<Turn.ToolCall, Future<JsonObject>> executor,
      int maxSteps,
      ToolLoopListener listener) {
    if (maxSteps < 1) {
      throw new IllegalArgumentException("maxSteps must be at least 1, was " + maxSteps);
    }
    this.provider = Objects.requireNonNull(provider, "provider");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.maxSteps = maxSteps;
    this.listener = listener == null ? ToolLoopListener.NONE : listener;
  }

  /**
   * Starts a loop from {@code first} on the current Vert.x context (or {@code vertx}'s when called
   * off one); the listener, the executor and the provider are all called on that context. Called on
   * a context, the first step runs after the caller's task, so the caller can keep the returned run
   * (in a field its executor reads) before anything is called. Called off one, the loop may already
   * have called the executor and the listener when this returns: they must not count on the run
   * having been kept anywhere yet.
   */
  public ToolLoopRun start(Vertx vertx, ModelRequest first) {
    Context context = vertx.getOrCreateContext();
    ToolLoopRun run = new ToolLoopRun(context, provider, executor, maxSteps, listener, first);
    context.runOnContext(go -> run.nextStep());
    return run;
  }
}
