package dev.canvasagent.runner;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunOutcome;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.ScreenshotRequest;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.nodeboards.BoardLookup;
import dev.canvasagent.runner.context.ChatRecorder;
import dev.canvasagent.runner.context.ContextBuilder;
import dev.canvasagent.runner.context.ContextGatherer;
import dev.canvasagent.runner.stream.ActionStream;
import dev.canvasagent.runner.stream.PartialGate;
import dev.canvasagent.store.Store;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run, from context to its final status: it calls the model and hands each action to the
 * {@link ActionPipeline} as the stream finishes it. Ending (done, error, deadline, cancel) stops the
 * model and lets the action in hand settle before the {@link FinalStatus}, so that nothing committed
 * goes unpublished and nothing is published after it.
 */
final class Run {
  private static final Logger LOG = LoggerFactory.getLogger(Run.class);

  private final Vertx vertx;
  private final EventBus bus;
  private final RunRequest request;
  private final ModelRegistry models;
  private final FixedPrompt prompt;
  private final AppConfig config;
  private final ContextBuilder contextBuilder;
  private final ContextGatherer contextGatherer;
  private final ChatRecorder history;
  private final Promise<RunOutcome> outcome = Promise.promise();

  /** The model's stream read as actions (tool calls, or an actions JSON in its text) and previews. */
  private final ActionStream stream;

  private final EnvelopePublisher envelopes;
  private final MetaActions meta;
  private final RunMetrics metrics;
  private final RunStatuses statuses;
  private final RoomChat chat;
  private final ActionPipeline actions;
  private final FinalStatus finalStatus;
  private final RunLog runLog;
  private boolean streamBroken;
  private ModelCall call;
  private long deadlineTimer;
  private boolean streaming;
  private int toolCalls;

  Run(
      Vertx vertx,
      RunRequest request,
      Store store,
      ModelRegistry models,
      ActionCatalog catalog,
      FixedPrompt prompt,
      AppConfig config,
      ContextBuilder contextBuilder,
      ContextGatherer contextGatherer,
      BoardLookup boards) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.request = request;
    this.models = models;
    this.prompt = prompt;
    this.config = config;
    this.contextBuilder = contextBuilder;
    this.contextGatherer = contextGatherer;
    this.history = new ChatRecorder(store.chats(), request.sessionId(), request.runId());
    this.meta = new MetaActions(bus, request);
    this.metrics = new RunMetrics();
    this.statuses = new RunStatuses(bus, request, metrics);
    this.chat = new RoomChat(bus, request, history);
    this.envelopes =
        new EnvelopePublisher(
            bus,
            store.sessions(),
            request.roomId(),
            request.sessionId(),
            metrics::envelopePublished,
            this::open,
            CanvasMetrics.of(vertx));
    this.actions =
        new ActionPipeline(
            vertx,
            request,
            meta,
            envelopes,
            metrics,
            history,
            chat,
            catalog,
            boards,
            config.runner().conflictPatienceMs(),
            this::open);
    this.finalStatus =
        new FinalStatus(bus, request, store.runs(), history, actions, meta, statuses);
    this.runLog = new RunLog(request, config, metrics, CanvasMetrics.of(vertx));
    this.stream =
        new ActionStream(
            request.runId(),
            catalog,
            new PartialGate(config.runner().partialIntervalMs(), System::currentTimeMillis),
            new ActionStream.Listener() {
              @Override
              public boolean action(AgentAction action) {
                submit(action);
                return open() && !streamBroken;
              }

              @Override
              public void preview(String actionId, String verb, JsonObject params) {
                envelopes.publishPartial(
                    actionId, verb, params, () -> open() && stream.isOpen(actionId));
              }

              @Override
              public void unreadable(String problem) {
                breakStream(problem);
              }

              @Override
              public void prose(String stretchSoFar) {
                chat.prose(stretchSoFar);
              }

              @Override
              public void proseEnds() {
                chat.proseEnds();
              }

              @Override
              public void chatPartial(String actionId, String textSoFar) {
                chat.partial(actionId, textSoFar);
              }
            });
  }

  /** Until its final status is out; nothing of the run is published after that. */
  private boolean open() {
    return !outcome.future().isComplete();
  }

  /**
   * The session's queue when this run started: how many runs waited (for the run log), and how many of
   * them are follow-ups of the same user request (then this run ends {@code scheduled}, not {@code done}).
   */
  void observeQueue(int depth, int followUpsOfThisRequest) {
    metrics.queueDepthAtStart(depth);
    finalStatus.followUpsWaiting(followUpsOfThisRequest);
  }

  Future<RunOutcome> execute() {
    deadlineTimer =
        vertx.setTimer(
            config.runner().deadlineMs(),
            id ->
                finish(
                    RunState.ERROR,
                    finalStatus.reason(
                        FailureCode.DEADLINE,
                        "the run exceeded its deadline of "
                            + config.runner().deadlineMs()
                            + " ms")));
    statuses.publish(RunState.WAITING_CONTEXT, null);
    actions
        .loadBoard()
        .compose(loaded -> screenshot())
        .onSuccess(
            shot -> metrics.promptCharacters(prompt.system().length() + request.message().length()))
        .onSuccess(this::callModel)
        .onFailure(error -> finish(RunState.ERROR, finalStatus.failure(error)));
    return outcome.future();
  }

  /** Ends the run as canceled; the future completes once its final status is out. */
  Future<RunOutcome> cancel(String why) {
    return cancel(FailureCode.CANCELED, why);
  }

  /**
   * Ends the run as canceled with {@code code} ({@code CANCELED}, {@code PREEMPTED}, {@code WATCHDOG})
   * and a reason. A run already ending ends as it was.
   */
  Future<RunOutcome> cancel(FailureCode code, String why) {
    finish(RunState.CANCELED, finalStatus.reason(code, why));
    return outcome.future();
  }

  /** The host's screenshot, or null: a run without one goes on text-only. */
  private Future<Screenshot> screenshot() {
    AppConfig.Screenshot screenshot = config.screenshot();
    ScreenshotRequest ask =
        new ScreenshotRequest(
            request.roomId(),
            request.sessionId(),
            request.viewport(),
            String.valueOf(actions.board().revision()),
            request.followUp() != null);
    return Address.SCREENSHOT_CAPTURE
        .ask(bus, ask, new DeliveryOptions().setSendTimeout(screenshot.patienceMs()))
        .map(
            shot -> {
              metrics.screenshot(shot);
              return shot;
            })
        .otherwise(
            error -> {
              LOG.atInfo()
                  .addKeyValue("runId", request.runId())
                  .addKeyValue("reason", Failure.of(error).code())
                  .log("context.text_only");
              return null;
            });
  }

  private void callModel(Screenshot screenshot) {
    if (!open()) {
      return;
    }
    statuses.publish(RunState.CALLING_MODEL, null);
    var provider = models.provider(request.model());
    if (provider.isEmpty()) {
      finish(
          RunState.ERROR,
          finalStatus.reason(FailureCode.UNKNOWN_MODEL, "unknown model '" + request.model() + "'"));
      return;
    }
    contextGatherer
        .gather(request, actions.board(), screenshot)
        .map(
            inputs -> {
              actions.useView(inputs.viewport());
              return contextBuilder.build(inputs, prompt.bytes());
            })
        .onSuccess(
            context -> {
              if (!open()) {
                return;
              }
              actions.useFrame(context.frame());
              metrics.contextStats(context.stats());
              if (request.followUp() == null) {
                history.user(request.message());
              } else {
                history.system(request.message());
              }
              ModelRequest.Sampling sampling =
                  request.followUp() == null
                      ? ModelRequest.Sampling.DEFAULT
                      : ModelRequest.Sampling.STRICT;
              call =
                  provider.get().stream(
                      context.request(request.model(), prompt.system(), prompt.tools(), sampling),
                      this::onModelEvent);
            })
        .onFailure(error -> finish(RunState.ERROR, finalStatus.failure(error)));
  }

  private void onModelEvent(ModelEvent event) {
    if (!open() || streamBroken) {
      return;
    }
    metrics.modelEvent(event);
    if (!streaming) {
      streaming = true;
      statuses.publish(RunState.STREAMING, null);
    }
    if (event instanceof ModelEvent.TextDelta text) {
      stream.text(text);
    } else if (event instanceof ModelEvent.ToolCallStart start) {
      stream.toolCallStart(start);
    } else if (event instanceof ModelEvent.ToolCallDelta delta) {
      stream.toolCallDelta(delta);
    } else if (event instanceof ModelEvent.ToolCallEnd end) {
      stream.toolCallEnd(end);
    } else if (event instanceof ModelEvent.Stop stop) {
      var problem = stream.finish();
      if (problem.isPresent()) {
        breakStream(problem.get());
        return;
      }
      actions
          .drained()
          .onSuccess(
              done -> {
                actions.dropDeferred();
                finish(RunState.DONE, finalStatus.summary().put("stopReason", stop.reason()));
              });
    } else if (event instanceof ModelEvent.Error error) {
      actions.drained().onComplete(done -> finish(RunState.ERROR, finalStatus.modelError(error)));
    }
  }

  /** One complete action, from a tool call or the text, into the pipeline (within the step cap). */
  private void submit(AgentAction action) {
    toolCalls++;
    if (toolCalls > config.runner().maxActions()) {
      call.cancel();
      streamBroken = true;
      actions
          .drained()
          .onSuccess(
              done -> {
                actions.dropDeferred();
                finish(
                    RunState.DONE,
                    finalStatus
                        .summary()
                        .put("stopReason", "step_cap")
                        .put("maxActions", config.runner().maxActions()));
              });
      return;
    }
    actions.submit(action).onFailure(error -> finish(RunState.ERROR, finalStatus.failure(error)));
  }

  /** The model's actions cannot be read: the stream stops, what was applied stays, the run ends in error. */
  private void breakStream(String problem) {
    streamBroken = true;
    if (call != null) {
      call.cancel();
    }
    actions
        .drained()
        .onComplete(
            done ->
                finish(
                    RunState.ERROR,
                    finalStatus
                        .reason(
                            FailureCode.ACTIONS_MALFORMED,
                            "the model's actions cannot be read: " + problem)
                        .put("applied", actions.tally().applied())));
  }

  /** Stops the model, lets the action in hand settle, then publishes the final status and logs the run. */
  private void finish(RunState state, JsonObject detail) {
    if (actions.stopping()) {
      return;
    }
    actions.stop();
    vertx.cancelTimer(deadlineTimer);
    if (call != null && state != RunState.DONE) {
      call.cancel();
    }
    actions
        .settled()
        .compose(
            settled -> {
              // The run's chat ends before its final status, as far as it was written.
              chat.close();
              return finalStatus.publish(state, detail);
            })
        .onSuccess(
            published -> {
              if (call != null) {
                metrics.providerRetries(call.retries());
              }
              runLog.finished(
                  published.state(),
                  published.detail(),
                  new RunLog.Counts(
                      toolCalls,
                      actions.tally().applied(),
                      actions.tally().dropped(),
                      actions.tally().deduped(),
                      envelopes.partialEnvelopes(),
                      finalStatus.followUpsQueued(),
                      meta.followUpsRefused(),
                      meta.todoChanges()));
              outcome.complete(
                  new RunOutcome(
                      published.state(), published.detail().copy(), published.recorded()));
            });
  }
}
