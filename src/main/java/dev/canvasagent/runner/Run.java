package dev.canvasagent.runner;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.ActionEnvelope;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.runner.context.ChatRecorder;
import dev.canvasagent.runner.context.ContextBuilder;
import dev.canvasagent.runner.context.ContextGatherer;
import dev.canvasagent.runner.context.ContextStats;
import dev.canvasagent.store.Store;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run, from context to its final status. Tool calls are handled strictly in the order the model
 * finished them, one at a time: sanitize against the current board, commit through the patch engine
 * against that board's revision (re-sanitizing on a conflict), take the session's next seq, publish.
 * Once the run is final nothing more is committed.
 */
final class Run {
  private static final Logger LOG = LoggerFactory.getLogger(Run.class);
  static final int MAX_COMMIT_ATTEMPTS = 3;
  static final int MAX_CHAT_TEXT_CHARS = 4_000;

  private final Vertx vertx;
  private final EventBus bus;
  private final RunRequest request;
  private final Store store;
  private final ModelRegistry models;
  private final ActionCatalog catalog;
  private final String systemPrompt;
  private final AppConfig config;
  private final ContextBuilder contextBuilder;
  private final ContextGatherer contextGatherer;
  private final ChatRecorder chat;
  private final Promise<JsonObject> outcome = Promise.promise();
  private final StringBuilder assistantText = new StringBuilder();

  private Board board;
  /**
   * The model's coordinates: relative to the session's origin, with the rounding the context
   * remembered. Set from the built context before the model is called, so before any action.
   */
  private CoordinateFrame frame = CoordinateFrame.atOrigin();
  /** What the model's context held, for the run's log line; null until the context is built. */
  private ContextStats contextStats;
  private final List<Deferred> deferred = new ArrayList<>();
  /** todo, add_detail and review, for the scheduler. */
  private final JsonArray agentRequests = new JsonArray();
  private int deduped;
  private Future<Void> pipeline = Future.succeededFuture();
  private ModelCall call;
  private long deadlineTimer;
  private boolean streaming;
  private int toolCalls;
  private int applied;
  private int dropped;
  private final long startedAtNanos = System.nanoTime();
  private long firstEnvelopeNanos;

  Run(Vertx vertx, RunRequest request, Store store, ModelRegistry models, ActionCatalog catalog,
      String systemPrompt, AppConfig config, ContextBuilder contextBuilder, ContextGatherer contextGatherer) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.request = request;
    this.store = store;
    this.models = models;
    this.catalog = catalog;
    this.systemPrompt = systemPrompt;
    this.config = config;
    this.contextBuilder = contextBuilder;
    this.contextGatherer = contextGatherer;
    this.chat = new ChatRecorder(store.chats(), request.sessionId());
  }

  /** An action that names shapes not on the board yet, waiting for the create that makes them. */
  private record Deferred(AgentAction action, String reason) {}

  Future<JsonObject> execute() {
    deadlineTimer = vertx.setTimer(config.runner().deadlineMs(), id -> finish(RunState.ERROR,
        reason("DEADLINE", "the run exceeded its deadline of " + config.runner().deadlineMs() + " ms")));
    status(RunState.WAITING_CONTEXT, null);
    loadBoard()
        .compose(loaded -> screenshot())
        .onSuccess(this::callModel)
        .onFailure(error -> finish(RunState.ERROR, failureReason(error)));
    return outcome.future();
  }

  void cancel(String why) {
    finish(RunState.CANCELED, reason("CANCELED", why));
  }

  private Future<Void> loadBoard() {
    return bus.<JsonObject>request(Address.PATCH_BOARD_GET, new JsonObject().put("roomId", request.roomId()))
        .map(reply -> {
          board = Board.fromJson(reply.body());
          return null;
        });
  }

  /** The host's screenshot, or null: a run without one goes on text-only. */
  private Future<JsonObject> screenshot() {
    AppConfig.Screenshot screenshot = config.screenshot();
    long patience = (long) screenshot.timeoutMs() * (screenshot.retries() + 1)
        + (long) screenshot.retryDelayMs() * screenshot.retries() + 1_000;
    JsonObject ask = new JsonObject().put("roomId", request.roomId()).put("sessionId", request.sessionId())
        .put("docVersion", String.valueOf(board.revision()));
    if (request.viewport() != null) {
      ask.put("bounds", request.viewport().toJson());
    }
    return bus.<JsonObject>request(Address.SCREENSHOT_CAPTURE, ask, new DeliveryOptions().setSendTimeout(patience))
        .map(reply -> reply.body())
        .otherwise(error -> {
          LOG.atInfo().addKeyValue("runId", request.runId()).addKeyValue("reason", Failure.of(error).code())
              .log("context.text_only");
          return null;
        });
  }

  private void callModel(JsonObject screenshot) {
    if (outcome.future().isComplete()) {
      return;
    }
    status(RunState.CALLING_MODEL, null);
    var provider = models.provider(request.model());
    if (provider.isEmpty()) {
      finish(RunState.ERROR, reason(FailureCode.UNKNOWN_MODEL.name(), "unknown model '" + request.model() + "'"));
      return;
    }
    JsonArray tools = catalog.describe();
    int fixedPromptBytes = systemPrompt.getBytes(StandardCharsets.UTF_8).length + tools.encode().getBytes(StandardCharsets.UTF_8).length;
    contextGatherer.gather(request, board, screenshot)
        .map(inputs -> contextBuilder.build(inputs, fixedPromptBytes))
        .onSuccess(context -> {
          if (outcome.future().isComplete()) {
            return;
          }
          frame = context.frame();
          contextStats = context.stats();
          chat.user(request.message());
          call = provider.get().stream(context.request(request.model(), systemPrompt, tools, ModelRequest.Sampling.DEFAULT), this::onModelEvent);
        })
        .onFailure(error -> finish(RunState.ERROR, failureReason(error)));
  }

  /** What the model's context held (sizes and counts only), or null when the run ended before the model was called. */
  ContextStats contextStats() {
    return contextStats;
  }

  private void onModelEvent(ModelEvent event) {
    if (outcome.future().isComplete()) {
      return;
    }
    if (!streaming) {
      streaming = true;
      status(RunState.STREAMING, null);
    }
    if (event instanceof ModelEvent.TextDelta text) {
      if (assistantText.length() < MAX_CHAT_TEXT_CHARS) {
        assistantText.append(text.text());
      }
    } else if (event instanceof ModelEvent.ToolCallEnd end) {
      onToolCall(end);
    } else if (event instanceof ModelEvent.Stop stop) {
      pipeline.onSuccess(done -> {
        dropDeferred();
        postAssistantText();
        finish(RunState.DONE, summary().put("stopReason", stop.reason()));
      });
    } else if (event instanceof ModelEvent.Error error) {
      pipeline.onComplete(done -> finish(RunState.ERROR,
          reason("MODEL_ERROR", error.errorType() + ": " + error.message()).put("retryable", error.retryable())));
    }
  }

  private void onToolCall(ModelEvent.ToolCallEnd end) {
    toolCalls++;
    if (toolCalls > config.runner().maxActions()) {
      call.cancel();
      pipeline.onSuccess(done -> {
        dropDeferred();
        finish(RunState.DONE, summary().put("stopReason", "step_cap").put("maxActions", config.runner().maxActions()));
      });
      return;
    }
    AgentAction action = new AgentAction(request.runId() + ":" + end.ordinal(), end.name(), end.arguments());
    pipeline = pipeline.compose(previous -> outcome.future().isComplete() ? Future.succeededFuture() : handle(action, 1));
    pipeline.onFailure(error -> finish(RunState.ERROR, failureReason(error)));
  }

  private Future<Void> handle(AgentAction action, int attempt) {
    JsonObject ask = new JsonObject()
        .put("roomId", request.roomId())
        .put("action", action.toJson())
        .put("board", board.toJson())
        .put("frame", frame.toJson());
    return bus.<JsonObject>request(Address.SANITIZER_SANITIZE, ask)
        .map(reply -> reply.body())
        .compose(
            sanitized -> apply(action, sanitized, attempt),
            error -> {
              Failure failure = Failure.of(error);
              switch (failure.code()) {
                case SHAPE_NOT_FOUND -> {
                  deferred.add(new Deferred(action, failure.getMessage()));
                  return Future.succeededFuture();
                }
                case DUPLICATE_CREATE -> {
                  deduped++;
                  dropped++;
                  return Future.succeededFuture();
                }
                case ACTION_INVALID -> {
                  dropped++;
                  return Future.succeededFuture();
                }
                default -> {
                  return Future.failedFuture(error);
                }
              }
            });
  }

  private Future<Void> apply(AgentAction original, JsonObject sanitized, int attempt) {
    AgentAction action = AgentAction.fromJson(sanitized.getJsonObject("action"));
    VerbKind kind = VerbKind.valueOf(sanitized.getString("kind"));
    if (kind == VerbKind.CHAT) {
      publishChat(action.params().getString("text"));
      applied++;
      return Future.succeededFuture();
    }
    if (outcome.future().isComplete()) {
      return Future.succeededFuture();
    }
    if (kind != VerbKind.BOARD) {
      if (kind == VerbKind.AGENT) {
        agentRequests.add(action.toJson());
      }
      applied++;
      return publish(action, null, 0);
    }
    RecordDiff diff = RecordDiff.fromJson(sanitized.getJsonObject("diff"));
    JsonObject commit = new JsonObject()
        .put("roomId", request.roomId())
        .put("baseRev", board.revision())
        .put("diff", diff.toJson())
        .put("author", "agent:" + request.sessionId());
    return bus.<JsonObject>request(Address.PATCH_BOARD_APPLY, commit)
        .compose(
            reply -> {
              board = board.apply(diff, reply.body().getLong("rev"));
              applied++;
              return publish(action, diff, board.revision()).compose(published -> retryDeferred());
            },
            error -> {
              Failure failure = Failure.of(error);
              if (failure.code() == FailureCode.REVISION_CONFLICT && attempt < MAX_COMMIT_ATTEMPTS) {
                return loadBoard().compose(reloaded -> handle(original, attempt + 1));
              }
              if (failure.code() == FailureCode.INVALID_RECORD) {
                // A verb produced what the patch engine will not store: never committed, reported as dropped.
                dropped++;
                LOG.atWarn().addKeyValue("runId", request.runId()).addKeyValue("verb", action.name())
                    .addKeyValue("reason", failure.getMessage()).log("action.refused_by_patch_engine");
                return Future.succeededFuture();
              }
              return Future.failedFuture(error);
            });
  }

  /** Actions that waited for shapes get another chance after every change to the board, in their order. */
  private Future<Void> retryDeferred() {
    if (deferred.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Deferred> waiting = new ArrayList<>(deferred);
    deferred.clear();
    Future<Void> chain = Future.succeededFuture();
    for (Deferred waiter : waiting) {
      chain = chain.compose(previous -> handle(waiter.action(), 1));
    }
    return chain;
  }

  /** At the end of the stream, what still waits refers to shapes that never came: dropped, with the reason. */
  private void dropDeferred() {
    for (Deferred waiter : deferred) {
      dropped++;
      LOG.atInfo().addKeyValue("runId", request.runId()).addKeyValue("verb", waiter.action().name())
          .addKeyValue("actionId", waiter.action().id()).addKeyValue("reason", waiter.reason()).log("action.dropped");
    }
    deferred.clear();
  }

  /**
   * Publishes the envelope of an applied action: with its revision and diff when it changed the board
   * (then even if the run ended meanwhile, so browsers stay in step), without for client-only actions.
   */
  private Future<Void> publish(AgentAction action, RecordDiff diff, long revision) {
    return store.sessions().nextSeq(request.sessionId()).map(seq -> {
      ActionEnvelope envelope = new ActionEnvelope(request.sessionId(), seq, false, List.of(action),
          System.currentTimeMillis(), revision, diff == null ? null : diff.toJson());
      bus.publish(RoomTopic.AGENT_ACTION.address(request.roomId()), envelope.toJson());
      if (firstEnvelopeNanos == 0) {
        firstEnvelopeNanos = System.nanoTime();
      }
      return null;
    });
  }

  private void postAssistantText() {
    String text = assistantText.toString().strip();
    if (!text.isEmpty()) {
      publishChat(text);
    }
  }

  /** Says something on the room's {@code agent:chat} and keeps it in the session's chat history. */
  private void publishChat(String text) {
    bus.publish(RoomTopic.AGENT_CHAT.address(request.roomId()), new AgentChat(request.sessionId(), "assistant", text).toJson());
    chat.assistant(text);
  }

  private void finish(RunState state, JsonObject detail) {
    if (outcome.future().isComplete()) {
      return;
    }
    vertx.cancelTimer(deadlineTimer);
    if (call != null && state != RunState.DONE) {
      call.cancel();
    }
    status(state, detail);
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAtNanos);
    var log = LOG.atInfo()
        .addKeyValue("roomId", request.roomId())
        .addKeyValue("sessionId", request.sessionId())
        .addKeyValue("runId", request.runId())
        .addKeyValue("state", state.wireName())
        .addKeyValue("toolCalls", toolCalls)
        .addKeyValue("applied", applied)
        .addKeyValue("dropped", dropped)
        .addKeyValue("elapsedMs", elapsedMs);
    if (firstEnvelopeNanos != 0) {
      long ttfbMs = TimeUnit.NANOSECONDS.toMillis(firstEnvelopeNanos - startedAtNanos);
      log = log.addKeyValue("ttfbMs", ttfbMs).addKeyValue("ttfbSloMet", ttfbMs <= config.ttfbSloMs());
    }
    log.log("run.finished");
    outcome.complete(summary().put("state", state.wireName()));
  }

  private JsonObject summary() {
    JsonObject summary = new JsonObject().put("runId", request.runId()).put("applied", applied).put("dropped", dropped)
        .put("deduped", deduped);
    if (!agentRequests.isEmpty()) {
      summary.put("agentRequests", agentRequests.copy());
    }
    return summary;
  }

  private JsonObject reason(String code, String text) {
    return new JsonObject().put("runId", request.runId()).put("code", code).put("reason", text);
  }

  private JsonObject failureReason(Throwable error) {
    Failure failure = Failure.of(error);
    return reason(failure.code().name(), failure.getMessage()).put("applied", applied);
  }

  private void status(RunState state, JsonObject detail) {
    bus.publish(RoomTopic.AGENT_STATUS.address(request.roomId()), new AgentStatus(request.sessionId(), state, detail).toJson());
  }
}
