package dev.canvasagent.runner;

import dev.canvasagent.bus.ActionOutcome;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.bus.OutsideAction;
import dev.canvasagent.bus.RunCancel;
import dev.canvasagent.bus.RunOutcome;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunStart;
import dev.canvasagent.bus.StoredUtterance;
import dev.canvasagent.bus.TranscriptAdd;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.nodeboards.BoardLookup;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.runner.context.ContextBuilder;
import dev.canvasagent.runner.context.ContextGatherer;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.TranscriptStore;
import dev.canvasagent.store.TranscriptStore.Utterance;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/**
 * Executes runs: each {@code runner.run} request becomes a {@link Run} that gathers context, calls the
 * model with streaming, and turns every finished tool call into an envelope on the room's topics. The
 * answer is the run's outcome, sent when the run has reached a final state; {@code runner.cancel}
 * ends a run early as {@code canceled}. It also keeps the rooms'
 * transcripts ({@code runner.transcript.add}), which the context of its runs reads, applies board
 * actions from outside a run ({@code runner.act}, {@link OutsideActions}) the way a run applies its own,
 * and shows a room as a run's model sees it to a model outside a run ({@code runner.view}, {@link
 * RoomViews}).
 */
public final class RunnerVerticle extends CanvasVerticle {
  private final Store store;
  private final ModelRegistry models;
  private final ActionCatalog catalog;
  private final AppConfig config;
  private final NodeBoards boards;
  private final Map<String, Run> active = new HashMap<>();
  private FixedPrompt prompt;
  private ContextBuilder contextBuilder;
  private ContextGatherer contextGatherer;
  private BoardLookup lookup;
  private OutsideActions outsideActions;
  private RoomViews views;
  private long finished;
  private long outsideApplied;

  public RunnerVerticle(
      Store store,
      ModelRegistry models,
      ActionCatalog catalog,
      AppConfig config,
      NodeBoards boards) {
    this.store = store;
    this.models = models;
    this.catalog = catalog;
    this.config = config;
    this.boards = boards;
  }

  @Override
  public String name() {
    return "runner";
  }

  @Override
  protected Future<?> startVerticle() {
    prompt = FixedPrompt.of(catalog);
    lookup = new BoardLookup(boards, vertx.eventBus());
    contextBuilder = ContextBuilder.create(config, System::currentTimeMillis);
    contextGatherer =
        new ContextGatherer(vertx.eventBus(), store, config.context(), System::currentTimeMillis);
    outsideActions =
        new OutsideActions(
            vertx, store.sessions(), catalog, lookup, config.runner().conflictPatienceMs());
    views =
        new RoomViews(
            vertx.eventBus(), config.screenshot(), lookup, contextGatherer, contextBuilder);
    return Future.join(
        answer(Address.RUNNER_RUN, this::run),
        answer(Address.RUNNER_ACT, this::act),
        answer(Address.RUNNER_VIEW, views::view),
        answer(Address.RUNNER_CANCEL, this::cancel),
        answer(Address.RUNNER_TRANSCRIPT_ADD, this::addUtterance));
  }

  /**
   * The bridge has checked the body against {@code api/transcript.json}; a missing ts is now. With an
   * idempotency key its caller already used in the room, nothing is stored: the answer is the first
   * utterance, or IDEMPOTENCY_KEY_REUSED when that one came with another request.
   */
  private Future<StoredUtterance> addUtterance(TranscriptAdd add) {
    Utterance utterance =
        new Utterance(
            add.speaker(), add.text(), add.ts() == null ? System.currentTimeMillis() : add.ts());
    IdempotencyKey key = add.idempotency();
    TranscriptStore.Keyed keyed =
        key == null
            ? null
            : new TranscriptStore.Keyed(
                key.key(), store.idempotencyKeys().utterance(key, add.roomId()), key.fingerprint());
    return store
        .transcripts()
        .add(add.roomId(), utterance, keyed)
        .map(stored -> new StoredUtterance(stored.speaker(), stored.text(), stored.tsMillis()))
        .recover(error -> Failure.storeFailed("store the utterance", error));
  }

  /** Answered when the run has reached a final state, with its outcome. */
  private Future<RunOutcome> run(RunStart start) {
    RunRequest request = start.run();
    Run run =
        new Run(
            vertx,
            request,
            store,
            models,
            catalog,
            prompt,
            config,
            contextBuilder,
            contextGatherer,
            lookup);
    run.observeQueue(start.queueDepthAtStart(), start.followUpsWaiting());
    active.put(request.runId(), run);
    return run.execute()
        .onComplete(
            outcome -> {
              active.remove(request.runId());
              finished++;
            });
  }

  /** One board action from outside a run (an MCP client's), answered with what became of it. */
  private Future<ActionOutcome> act(OutsideAction action) {
    return outsideActions.act(action).onSuccess(outcome -> outsideApplied++);
  }

  /** The scheduler cancels a run (cancel request, preemption, watchdog): answered once its final status is out. */
  private Future<RunOutcome> cancel(RunCancel cancel) {
    Run run = cancel.runId() == null ? null : active.get(cancel.runId());
    if (run == null) {
      return Failure.future(FailureCode.NOT_FOUND, "no run " + cancel.runId() + " is running here");
    }
    return run.cancel(cancel.code(), cancel.reason());
  }

  @Override
  public Future<?> stop() {
    // Each run's final status goes out before the verticle (and its timers) go.
    return Future.join(
        java.util.List.copyOf(active.values()).stream()
            .map(run -> run.cancel("the server is shutting down"))
            .toList());
  }

  @Override
  protected Future<JsonObject> health() {
    return Future.succeededFuture(
        new JsonObject()
            .put("ok", true)
            .put("active", active.size())
            .put("finished", finished)
            .put("outsideActions", outsideApplied));
  }
}
