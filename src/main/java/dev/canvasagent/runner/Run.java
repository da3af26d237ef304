package dev.canvasagent.runner;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunEnding;
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
import dev.canvasagent.runner.stream.ActionStream;
import dev.canvasagent.runner.stream.PartialGate;
import dev.canvasagent.schema.NulCharacters;
import dev.canvasagent.store.Store;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run, from context to its final status. Actions come as tool calls or as an actions JSON in the
 * model's text, both read incrementally as they stream; they are handled strictly in the order the
 * model finished them, one at a time: sanitize against the current board, commit through the patch
 * engine against that board's revision (re-sanitizing on a conflict), take the session's next seq,
 * publish. Board actions still being written go out as partial envelopes. Meta actions go to the
 * scheduler as they come ({@link MetaActions}). Ending (done, error, deadline, cancel) first stops the
 * model and lets the action in hand settle, so a diff already sent to the patch engine is published
 * before the final status; once the run is ending no new commit is sent, and once its final status
 * is out nothing of it is published. A run about to end {@code done} asks the scheduler which
 * follow-ups its rules add ({@code scheduler.run_ending}); a run after which follow-ups of its user
 * request are still to run ends {@code scheduled} instead of {@code done}, so {@code done} marks the
 * end of the request. One {@code run.finished} line logs it.
 */
final class Run {
  private static final Logger LOG = LoggerFactory.getLogger(Run.class);
  static final int MAX_COMMIT_ATTEMPTS = 3;
  static final int MAX_CHAT_TEXT_CHARS = 4_000;
  /** How long an ending run waits for the action in hand (a commit under way) before its final status. */
  static final long SETTLE_MS = 1_000;
  private static final int MESSAGE_HASH_HEX_CHARS = 12;
  /** How long an ending run waits for the scheduler's rules before it ends {@code done} without them. */
  static final long RULES_ANSWER_MS = 2_000;

  private final Vertx vertx;
  private final EventBus bus;
  private final RunRequest request;
  private final Store store;
  private final ModelRegistry models;
  private final ActionCatalog catalog;
  private final FixedPrompt prompt;
  private final AppConfig config;
  private final ContextBuilder contextBuilder;
  private final ContextGatherer contextGatherer;
  private final ChatRecorder chat;
  private final Promise<JsonObject> outcome = Promise.promise();
  /** The model's stream read as actions (tool calls, or an actions JSON in its text) and previews. */
  private final ActionStream actions;
  private final EnvelopePublisher envelopes;
  private boolean streamBroken;

  private Board board;
  /**
   * The model's coordinates: relative to the session's origin, with the rounding the context
   * remembered. Set from the built context before the model is called, so before any action.
   */
  private CoordinateFrame frame = CoordinateFrame.atOrigin();
  /** What the model's context held, for the run's log line; null until the context is built. */
  private ContextStats contextStats;
  private final List<Deferred> deferred = new ArrayList<>();
  private final MetaActions meta;
  private final RunMetrics metrics;
  /** Set when the run starts ending: from then on nothing new is committed. */
  private boolean stopping;
  private int followUpsWaiting;
  private int deduped;
  private Future<Void> pipeline = Future.succeededFuture();
  private ModelCall call;
  private long deadlineTimer;
  private boolean streaming;
  private int toolCalls;
  private int applied;
  /** Of {@link #applied}, the chat ({@code think}, {@code message}): not counted by the low-action rule. */
  private int chatApplied;
  /** {@code {runId, number, reason}} of the follow-ups the scheduler's rules added when this run ended. */
  private final JsonArray ruleFollowUps = new JsonArray();
  private int dropped;
  private final BatchIssues batchIssues = new BatchIssues();

  Run(Vertx vertx, RunRequest request, Store store, ModelRegistry models, ActionCatalog catalog,
      FixedPrompt prompt, AppConfig config, ContextBuilder contextBuilder, ContextGatherer contextGatherer) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.request = request;
    this.store = store;
    this.models = models;
    this.catalog = catalog;
    this.prompt = prompt;
    this.config = config;
    this.contextBuilder = contextBuilder;
    this.contextGatherer = contextGatherer;
    this.chat = new ChatRecorder(store.chats(), request.sessionId());
    this.meta = new MetaActions(bus, request);
    this.metrics = new RunMetrics();
    this.envelopes = new EnvelopePublisher(bus, store.sessions(), request, metrics, () -> !outcome.future().isComplete());
    this.actions = new ActionStream(request.runId(), catalog,
        new PartialGate(config.runner().partialIntervalMs(), System::currentTimeMillis), new ActionStream.Listener() {
          @Override
          public boolean action(AgentAction action) {
            submit(action);
            return !outcome.future().isComplete() && !streamBroken;
          }

          @Override
          public void preview(String actionId, String verb, JsonObject params) {
            envelopes.publishPartial(actionId, verb, params,
                () -> !outcome.future().isComplete() && actions.isOpen(actionId));
          }

          @Override
          public void unreadable(String problem) {
            breakStream(problem);
          }
        });
  }

  /** An action that names shapes not on the board yet, waiting for the create that makes them. */
  private record Deferred(AgentAction action, String reason) {}

  /**
   * The session's queue when this run started: how many runs waited (for the run log), and how many of
   * them are follow-ups of the same user request (then this run ends {@code scheduled}, not {@code done}).
   */
  void observeQueue(int depth, int followUpsOfThisRequest) {
    metrics.queueDepthAtStart(depth);
    followUpsWaiting = followUpsOfThisRequest;
  }

  Future<JsonObject> execute() {
    deadlineTimer = vertx.setTimer(config.runner().deadlineMs(), id -> finish(RunState.ERROR,
        reason("DEADLINE", "the run exceeded its deadline of " + config.runner().deadlineMs() + " ms")));
    status(RunState.WAITING_CONTEXT, null);
    loadBoard()
        .compose(loaded -> screenshot())
        .onSuccess(shot -> metrics.promptCharacters(prompt.system().length() + request.message().length()))
        .onSuccess(this::callModel)
        .onFailure(error -> finish(RunState.ERROR, failureReason(error)));
    return outcome.future();
  }

  /** Ends the run as canceled; the future completes once its final status is out. */
  Future<JsonObject> cancel(String why) {
    return cancel("CANCELED", why);
  }

  /**
   * Ends the run as canceled with {@code code} ({@code CANCELED}, {@code PREEMPTED}, {@code WATCHDOG})
   * and a reason. From here no new commit is sent; an action already in the patch engine is published
   * before the final status (waiting at most {@link #SETTLE_MS}). A run already ending ends as it was.
   */
  Future<JsonObject> cancel(String code, String why) {
    finish(RunState.CANCELED, reason(code, why));
    return outcome.future();
  }

  private Future<Void> loadBoard() {
    return bus.<JsonObject>request(Address.PATCH_BOARD_GET, new JsonObject().put("roomId", request.roomId()))
        .map(reply -> {
          board = Board.fromJson(reply.body());
          metrics.board(board.revision(), (int) board.records().keySet().stream().filter(id -> id.startsWith("shape:")).count());
          return null;
        });
  }

  /** The host's screenshot, or null: a run without one goes on text-only. */
  private Future<JsonObject> screenshot() {
    AppConfig.Screenshot screenshot = config.screenshot();
    long patience = (long) screenshot.timeoutMs() * (screenshot.retries() + 1)
        + (long) screenshot.retryDelayMs() * screenshot.retries() + 1_000;
    JsonObject ask = new JsonObject().put("roomId", request.roomId()).put("sessionId", request.sessionId())
        .put("docVersion", String.valueOf(board.revision()))
        .put("fresh", request.followUp() != null);
    if (request.viewport() != null) {
      ask.put("bounds", request.viewport().toJson());
    }
    return bus.<JsonObject>request(Address.SCREENSHOT_CAPTURE, ask, new DeliveryOptions().setSendTimeout(patience))
        .map(reply -> {
          metrics.screenshot(reply.body());
          return reply.body();
        })
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
    contextGatherer.gather(request, board, screenshot)
        .map(inputs -> contextBuilder.build(inputs, prompt.bytes()))
        .onSuccess(context -> {
          if (outcome.future().isComplete()) {
            return;
          }
          frame = context.frame();
          contextStats = context.stats();
          metrics.contextStats(contextStats.promptTokenEstimate(), shapeCounts(contextStats), contextStats.imageBytes(),
              contextStats.shapeStateStats().toJson());
          if (request.followUp() == null) {
            chat.user(request.message());
          } else {
            chat.system(request.message());
          }
          ModelRequest.Sampling sampling = request.followUp() == null ? ModelRequest.Sampling.DEFAULT : ModelRequest.Sampling.STRICT;
          call = provider.get().stream(context.request(request.model(), prompt.system(), prompt.tools(), sampling), this::onModelEvent);
        })
        .onFailure(error -> finish(RunState.ERROR, failureReason(error)));
  }

  /** What the model's context held (sizes and counts only), or null when the run ended before the model was called. */
  ContextStats contextStats() {
    return contextStats;
  }

  /** The context's counts for the run log: shapes on the board, in view and sent, clusters, selection, cuts. */
  private static JsonObject shapeCounts(ContextStats stats) {
    return new JsonObject()
        .put("board", stats.shapes())
        .put("inView", stats.shapesInView())
        .put("sent", stats.shapesSent())
        .put("peripheralClusters", stats.peripheralClusters())
        .put("selected", stats.selected())
        .put("contextBytes", stats.contextBytes())
        .put("cut", new JsonArray(stats.cut()))
        .put("memoHit", stats.memoHit());
  }

  private void onModelEvent(ModelEvent event) {
    if (outcome.future().isComplete() || streamBroken) {
      return;
    }
    metrics.modelEvent(event);
    if (!streaming) {
      streaming = true;
      status(RunState.STREAMING, null);
    }
    if (event instanceof ModelEvent.TextDelta text) {
      actions.text(text);
    } else if (event instanceof ModelEvent.ToolCallStart start) {
      actions.toolCallStart(start);
    } else if (event instanceof ModelEvent.ToolCallDelta delta) {
      actions.toolCallDelta(delta);
    } else if (event instanceof ModelEvent.ToolCallEnd end) {
      actions.toolCallEnd(end);
    } else if (event instanceof ModelEvent.Stop stop) {
      var problem = actions.finish();
      if (problem.isPresent()) {
        breakStream(problem.get());
        return;
      }
      pipeline.onSuccess(done -> {
        dropDeferred();
        postAssistantText();
        finish(RunState.DONE, summary().put("stopReason", stop.reason()));
      });
    } else if (event instanceof ModelEvent.Error error) {
      pipeline.onComplete(done -> finish(RunState.ERROR, modelError(error)));
    }
  }

  /** One complete action, from a tool call or the text, into the pipeline (within the step cap). */
  private void submit(AgentAction action) {
    toolCalls++;
    if (toolCalls > config.runner().maxActions()) {
      call.cancel();
      streamBroken = true;
      pipeline.onSuccess(done -> {
        dropDeferred();
        finish(RunState.DONE, summary().put("stopReason", "step_cap").put("maxActions", config.runner().maxActions()));
      });
      return;
    }
    pipeline = pipeline.compose(previous -> outcome.future().isComplete() ? Future.succeededFuture() : handle(action, 1));
    pipeline.onFailure(error -> finish(RunState.ERROR, failureReason(error)));
  }

  /** The model's actions cannot be read: the stream stops, what was applied stays, the run ends in error. */
  private void breakStream(String problem) {
    streamBroken = true;
    if (call != null) {
      call.cancel();
    }
    pipeline.onComplete(done -> finish(RunState.ERROR,
        reason("ACTIONS_MALFORMED", "the model's actions cannot be read: " + problem).put("applied", applied)));
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
    if (stopping) {
      // Ending: nothing new is said or committed, so nothing of the run follows its final status.
      return Future.succeededFuture();
    }
    if (kind == VerbKind.CHAT) {
      publishChat(action.params().getString("text"));
      countApplied();
      chatApplied++;
      return Future.succeededFuture();
    }
    if (kind == VerbKind.AGENT) {
      return meta.send(action).compose(result -> {
        if (result == MetaActions.Outcome.DROPPED) {
          dropped++;
          return Future.succeededFuture();
        }
        if (result == MetaActions.Outcome.REFUSED) {
          return Future.succeededFuture();
        }
        countApplied();
        return envelopes.publish(action, null, 0);
      });
    }
    if (kind != VerbKind.BOARD) {
      countApplied();
      return envelopes.publish(action, null, 0);
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
              if (outcome.future().isComplete()) {
                // The patch engine took longer than the settle time: committed, but the final status is
                // out, and nothing of the run is published after it.
                LOG.atWarn().addKeyValue("runId", request.runId()).addKeyValue("rev", reply.body().getLong("rev"))
                    .log("commit.after_final_status");
                return Future.succeededFuture();
              }
              board = board.apply(diff, reply.body().getLong("rev"));
              countApplied();
              batchIssues.take(action).ifPresent(chat::system);
              return envelopes.publish(action, diff, board.revision()).compose(published -> retryDeferred());
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

  private void postAssistantText() {
    // Not through the sanitizer: a NUL the model wrote is stripped here, or the chat store would refuse the text.
    String text = NulCharacters.stripped(actions.prose());
    if (text.length() > MAX_CHAT_TEXT_CHARS) {
      text = text.substring(0, MAX_CHAT_TEXT_CHARS);
    }
    if (!text.isEmpty()) {
      publishChat(text);
    }
  }

  /** Says something on the room's {@code agent:chat} and keeps it in the session's chat history. */
  private void publishChat(String text) {
    bus.publish(RoomTopic.AGENT_CHAT.address(request.roomId()), new AgentChat(request.sessionId(), "assistant", text).toJson());
    chat.assistant(text);
  }

  private void countApplied() {
    applied++;
    metrics.applied();
  }

  /**
   * Ends the run: stops the model, waits (at most {@link #SETTLE_MS}) for the action in hand, then
   * publishes the final status and logs the run. DONE becomes SCHEDULED when follow-ups of the same
   * user request are still to run (queued by this run or before it).
   */
  private void finish(RunState state, JsonObject detail) {
    if (stopping) {
      return;
    }
    stopping = true;
    vertx.cancelTimer(deadlineTimer);
    if (call != null && state != RunState.DONE) {
      call.cancel();
    }
    settled().onComplete(settled -> conclude(state, detail));
  }

  private Future<Void> settled() {
    Future<Void> inHand = pipeline;
    if (inHand.isComplete()) {
      return Future.succeededFuture();
    }
    Promise<Void> settled = Promise.promise();
    long timer = vertx.setTimer(SETTLE_MS, id -> settled.tryComplete());
    inHand.onComplete(done -> {
      vertx.cancelTimer(timer);
      settled.tryComplete();
    });
    return settled.future();
  }

  private void conclude(RunState state, JsonObject detail) {
    if (state != RunState.DONE) {
      publishFinal(state, detail);
      return;
    }
    RunEnding ending = new RunEnding(request.runId(), request.sessionId(), applied - chatApplied);
    bus.<JsonObject>request(Address.SCHEDULER_RUN_ENDING, ending.toJson(), new DeliveryOptions().setSendTimeout(RULES_ANSWER_MS))
        .onSuccess(reply -> ruleFollowUps.addAll(reply.body().getJsonArray("followUps", new JsonArray())))
        .onFailure(error -> LOG.atWarn().addKeyValue("runId", request.runId())
            .addKeyValue("code", Failure.of(error).code()).log("followup.rules_unanswered"))
        .onComplete(asked -> publishFinal(state, detail));
  }

  private void publishFinal(RunState state, JsonObject detail) {
    if (call != null) {
      metrics.providerRetries(call.retries());
    }
    boolean moreToCome = followUpsQueued() + followUpsWaiting > 0;
    RunState published = state == RunState.DONE && moreToCome ? RunState.SCHEDULED : state;
    JsonObject full = summary().mergeIn(detail == null ? new JsonObject() : detail);
    if (!ruleFollowUps.isEmpty()) {
      // The detail was taken before the scheduler's rules answered.
      full.put("followupsQueued", summary().getJsonArray("followupsQueued"));
    }
    if (state == RunState.ERROR) {
      if (!full.containsKey("retryable")) {
        full.put("retryable", retryable(full.getString("code")));
      }
      if (board != null) {
        // What the board holds after the committed part of the run, so a client can check it is in step.
        full.put("boardRevision", board.revision());
      }
    }
    // What a client is told is committed first: the run's chat, then its final state in the run records.
    chat.settled()
        .compose(written -> store.runs().finish(request.runId(), published.wireName(), full))
        .onComplete(recorded -> {
          if (recorded.failed()) {
            LOG.atWarn().addKeyValue("runId", request.runId()).addKeyValue("error", recorded.cause().getMessage())
                .log("run.record_failed");
          }
          status(published, full);
          log(published, full);
          outcome.complete(full.copy().put("state", published.wireName()));
        });
  }

  /** The one {@code run.finished} line: counts, times and sizes, never the message, chat or image. */
  private void log(RunState state, JsonObject detail) {
    long ttfbMs = metrics.ttfbMs();
    var line = LOG.atInfo()
        .addKeyValue("roomId", request.roomId())
        .addKeyValue("sessionId", request.sessionId())
        .addKeyValue("runId", request.runId())
        .addKeyValue("model", request.model())
        .addKeyValue("state", state.wireName());
    for (String field : List.of("stopReason", "code")) {
      if (detail.getString(field) != null) {
        line = line.addKeyValue(field, detail.getString(field));
      }
    }
    line = line
        .addKeyValue("toolCalls", toolCalls)
        .addKeyValue("applied", applied)
        .addKeyValue("dropped", dropped)
        .addKeyValue("deduped", deduped)
        .addKeyValue("partialEnvelopes", envelopes.partialEnvelopes())
        .addKeyValue("followUpNumber", request.followUp() == null ? 0 : request.followUp().number())
        .addKeyValue("followupsQueued", followUpsQueued())
        .addKeyValue("followupsRefused", meta.followUpsRefused())
        .addKeyValue("todoChanges", meta.todoChanges())
        .addKeyValue("elapsedMs", metrics.elapsedMs());
    line = metrics.addTo(line);
    if (ttfbMs >= 0) {
      line = line.addKeyValue("ttfbSloMet", ttfbMs <= config.ttfbSloMs());
    }
    if (config.model().debug()) {
      // Debug may tell messages apart, never show them.
      line = line.addKeyValue("messageChars", request.message().length())
          .addKeyValue("messageSha256", sha256Prefix(request.message()));
    }
    line.log("run.finished");
  }

  private static String sha256Prefix(String text) {
    try {
      byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(digest).substring(0, MESSAGE_HASH_HEX_CHARS);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /** Whether the same request may succeed if sent again: the failures that pass by themselves. */
  private static boolean retryable(String code) {
    return code != null && switch (code) {
      case "TIMEOUT", "STORE_UNAVAILABLE", "NO_HOST", "SCREENSHOT_TIMEOUT", "QUEUE_FULL", "REVISION_CONFLICT" -> true;
      default -> false;
    };
  }

  private JsonObject summary() {
    JsonObject summary = new JsonObject().put("runId", request.runId()).put("applied", applied).put("dropped", dropped)
        .put("deduped", deduped)
        .put("followups", request.followUp() == null ? 0 : request.followUp().number());
    if (request.followUp() != null) {
      summary.put("followUp", request.followUp().toJson());
    }
    if (followUpsQueued() > 0) {
      summary.put("followupsQueued", meta.followUps().addAll(ruleFollowUps));
    }
    if (meta.followUpsRefused() > 0) {
      summary.put("followupsRefused", meta.followUpsRefused());
    }
    if (meta.todoChanges() > 0) {
      summary.put("todoChanges", meta.todoChanges());
    }
    batchIssues.addTo(summary);
    return summary;
  }

  /** The follow-ups this run queued: those it asked for, and those the scheduler's rules added. */
  private int followUpsQueued() {
    return meta.followUpsQueued() + ruleFollowUps.size();
  }

  private JsonObject reason(String code, String text) {
    return new JsonObject().put("runId", request.runId()).put("code", code).put("reason", text);
  }

  /**
   * A model's failure as every viewer sees it and the run record keeps it: a provider's error arrives
   * in the server's words already, with the provider's status and the correlation id of the
   * operator's log line that has the provider's text.
   */
  private JsonObject modelError(ModelEvent.Error error) {
    JsonObject detail = reason("MODEL_ERROR", error.errorType() + ": " + error.message())
        .put("errorType", error.errorType()).put("retryable", error.retryable());
    if (error.providerStatus() > 0) {
      detail.put("providerStatus", error.providerStatus());
    }
    if (error.correlationId() != null) {
      detail.put("correlationId", error.correlationId());
    }
    return detail;
  }

  private JsonObject failureReason(Throwable error) {
    Failure failure = Failure.of(error);
    return reason(failure.code().name(), failure.getMessage()).put("applied", applied);
  }

  /**
   * Publishes a status with its detail; every detail names the run, and the early states say what
   * they are about: the follow-up being run, the model called, the model's first event.
   */
  private void status(RunState state, JsonObject detail) {
    JsonObject full = detail == null ? new JsonObject() : detail;
    if (!full.containsKey("runId")) {
      full.put("runId", request.runId());
    }
    switch (state) {
      case WAITING_CONTEXT -> {
        if (request.followUp() != null) {
          full.put("followUp", request.followUp().toJson());
        }
      }
      case CALLING_MODEL -> full.put("model", request.model());
      case STREAMING -> full.mergeIn(metrics.firstEventDetail());
      default -> { }
    }
    new AgentStatus(request.sessionId(), state, full).publish(bus, request.roomId());
  }
}
