package dev.canvasagent.runner;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.AcceptedAction;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.catalog.dialect.VerbDialects;
import dev.canvasagent.nodeboards.BoardLookup;
import dev.canvasagent.runner.context.ChatRecorder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's actions, one at a time in the order the model finished them: sanitized against the current
 * board, committed through the patch engine against that board's revision (on a conflict, sanitized
 * again against the fresh board and retried, {@link CommitAttempts}), then published. Counts what
 * became of them for the run's final status. The board is read by revision from the node's boards
 * ({@link BoardLookup}) and named to the sanitizer by its revision: no board crosses the bus on the
 * node that holds it.
 */
final class ActionPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(ActionPipeline.class);

  /** How long an ending run waits for the action in hand (a commit under way) before its final status. */
  static final long SETTLE_MS = 1_000;

  private final Vertx vertx;
  private final EventBus bus;
  private final RunRequest request;
  private final MetaActions meta;
  private final EnvelopePublisher envelopes;
  private final RunMetrics metrics;
  private final ChatRecorder history;
  private final RoomChat chat;
  private final DeletedTargets deletedTargets;
  private final long conflictPatienceMs;

  /** False once the run's final status is out: a commit answered later is not published. */
  private final BooleanSupplier runOpen;

  private final List<Deferred> deferred = new ArrayList<>();
  private final BatchIssues batchIssues = new BatchIssues();
  private final LockedTargets lockedTargets = new LockedTargets();
  private final RefusalNotes refusals = new RefusalNotes();
  private Future<Void> tail = Future.succeededFuture();
  private final WriterBoard board;
  private final ActionCommit commits;

  /**
   * The model's coordinates: relative to the session's origin, with the rounding the context
   * remembered. Set before the model is called, so before any action.
   */
  private CoordinateFrame frame = CoordinateFrame.atOrigin();

  private final ActionTally tally;
  private final AliasedVerbs aliases;
  private boolean stopping;

  ActionPipeline(
      Vertx vertx,
      RunRequest request,
      MetaActions meta,
      EnvelopePublisher envelopes,
      RunMetrics metrics,
      ChatRecorder history,
      RoomChat chat,
      ActionCatalog catalog,
      BoardLookup boards,
      long conflictPatienceMs,
      BooleanSupplier runOpen) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.request = request;
    this.meta = meta;
    this.envelopes = envelopes;
    this.metrics = metrics;
    this.tally = new ActionTally(metrics);
    this.history = history;
    this.chat = chat;
    this.deletedTargets = new DeletedTargets(catalog);
    this.aliases = new AliasedVerbs(new VerbDialects(catalog), request.runId());
    this.conflictPatienceMs = conflictPatienceMs;
    this.runOpen = runOpen;
    this.board = new WriterBoard(boards, request.roomId(), deletedTargets::saw);
    this.commits =
        new ActionCommit(
            bus,
            request.roomId(),
            "agent:" + request.sessionId(),
            request.runId(),
            board,
            () -> !stopping);
  }

  /** An action that names shapes not on the board yet, waiting for the create that makes them. */
  private record Deferred(AgentAction action, String reason) {}

  /** Reads the room's board; the actions are sanitized and committed against it from then on. */
  Future<Void> loadBoard() {
    return board
        .reload()
        .<Void>map(loaded -> null)
        .onSuccess(
            loaded ->
                metrics.board(
                    board().revision(),
                    (int)
                        board().records().keySet().stream()
                            .filter(id -> id.startsWith("shape:"))
                            .count()));
  }

  /** The board as the run's commits left it; null until it is loaded. */
  Board board() {
    return board.current();
  }

  void useFrame(CoordinateFrame frame) {
    this.frame = frame;
  }

  /** The requester's view for this run (page space, null when unknown). */
  void useView(Viewport view) {
    commits.useView(view);
  }

  /**
   * Queues one complete action behind those before it. The future fails when this action (or one
   * before it) failed in a way that ends the run.
   */
  Future<Void> submit(AgentAction action) {
    tail =
        tail.compose(
            previous ->
                runOpen.getAsBoolean()
                    ? handleInOurVerbs(action).onComplete(handled -> chat.settle(action.id()))
                    : Future.succeededFuture());
    return tail;
  }

  /**
   * An action of another dialect is put into our verbs once, here, and from then on is handled (and
   * sanitized again after a conflict) as if the model had written it so.
   */
  private Future<Void> handleInOurVerbs(AgentAction action) {
    AgentAction ours;
    try {
      ours = aliases.inOurVerbs(action);
    } catch (ActionRejected unmappable) {
      tally.drop();
      logDropped(action, unmappable.getMessage());
      refusals.take(action, unmappable.getMessage()).ifPresent(history::system);
      return Future.succeededFuture();
    }
    return handle(ours, attempts());
  }

  /** Completes once every action submitted so far has been handled; fails like {@link #submit}. */
  Future<Void> drained() {
    return tail;
  }

  boolean stopping() {
    return stopping;
  }

  /** From now on nothing new is said or committed, so nothing of the run follows its final status. */
  void stop() {
    stopping = true;
  }

  /** Completes when the action in hand has settled, or after {@link #SETTLE_MS}, whichever is first. */
  Future<Void> settled() {
    Future<Void> inHand = tail;
    if (inHand.isComplete()) {
      return Future.succeededFuture();
    }
    Promise<Void> settled = Promise.promise();
    long timer = vertx.setTimer(SETTLE_MS, id -> settled.tryComplete());
    inHand.onComplete(
        done -> {
          vertx.cancelTimer(timer);
          settled.tryComplete();
        });
    return settled.future();
  }

  /** A fresh count of one action's commit attempts. */
  private CommitAttempts attempts() {
    return new CommitAttempts(vertx, conflictPatienceMs, metrics::commitConflict);
  }

  private Future<Void> handle(AgentAction action, CommitAttempts attempts) {
    return commits
        .attempt(action, frame, attempts)
        .compose(
            result -> {
              if (result instanceof ActionCommit.Refused refused) {
                return refused(action, refused.failure());
              }
              if (result instanceof ActionCommit.Judged judged) {
                return apply(judged.accepted());
              }
              if (result instanceof ActionCommit.Committed committed) {
                return committed(committed, attempts);
              }
              if (result instanceof ActionCommit.NotStored notStored) {
                return notStored(notStored);
              }
              return Future.succeededFuture();
            });
  }

  private Future<Void> refused(AgentAction action, Failure failure) {
    switch (failure.code()) {
      case SHAPE_NOT_FOUND -> {
        var gone = deletedTargets.deleted(action, board());
        if (gone.isPresent()) {
          // Deleted, not yet to come: no create will bring them back.
          tally.drop();
          logDropped(action, deletedTargets.drop(action, gone.get()));
          return Future.succeededFuture();
        }
        deferred.add(new Deferred(action, failure.getMessage()));
        return Future.succeededFuture();
      }
      case DUPLICATE_CREATE -> {
        tally.dedupe();
        return Future.succeededFuture();
      }
      case ACTION_INVALID -> {
        tally.drop();
        lockedTargets.take(action, failure.getMessage());
        refusals.take(action, failure.getMessage()).ifPresent(history::system);
        return Future.succeededFuture();
      }
      default -> {
        return Future.failedFuture(failure);
      }
    }
  }

  /** An accepted action that is not a board verb: said, sent to the scheduler, or published. */
  private Future<Void> apply(AcceptedAction sanitized) {
    AgentAction action = sanitized.action();
    VerbKind kind = VerbKind.valueOf(sanitized.kind());
    if (kind == VerbKind.CHAT) {
      chat.say(action.id(), action.params().getString("text"));
      tally.applied(kind);
      return Future.succeededFuture();
    }
    if (kind == VerbKind.AGENT) {
      return meta.send(action)
          .compose(
              result -> {
                if (result == MetaActions.Outcome.DROPPED) {
                  tally.drop();
                  return Future.succeededFuture();
                }
                if (result == MetaActions.Outcome.REFUSED) {
                  return Future.succeededFuture();
                }
                tally.applied(kind);
                return envelopes.publish(action, null, 0);
              });
    }
    tally.applied(kind);
    return envelopes.publish(action, null, 0);
  }

  private Future<Void> committed(ActionCommit.Committed committed, CommitAttempts attempts) {
    AgentAction action = committed.accepted().action();
    RecordDiff diff = committed.accepted().diff();
    if (!runOpen.getAsBoolean()) {
      // The patch engine took longer than the settle time: committed, but the final status is
      // out, and nothing of the run is published after it.
      LOG.atWarn()
          .addKeyValue("runId", request.runId())
          .addKeyValue("rev", committed.revision().revision())
          .log("commit.after_final_status");
      return Future.succeededFuture();
    }
    if (!committed.revision().changed()) {
      return unchanged(action, attempts);
    }
    tally.committed(action, diff);
    batchIssues.take(action).ifPresent(history::system);
    return envelopes
        .publish(action, diff, board().revision())
        .compose(published -> retryDeferred());
  }

  /**
   * A verb produced what the patch engine will not store (INVALID_RECORD): never committed, reported
   * as dropped. Any other refusal ends the run.
   */
  private Future<Void> notStored(ActionCommit.NotStored notStored) {
    Failure failure = notStored.failure();
    if (failure.code() != FailureCode.INVALID_RECORD) {
      return Future.failedFuture(failure);
    }
    tally.drop();
    LOG.atWarn()
        .addKeyValue("runId", request.runId())
        .addKeyValue("verb", notStored.accepted().action().name())
        .addKeyValue("reason", failure.getMessage())
        .log("action.refused_by_patch_engine");
    return Future.succeededFuture();
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
      chain = chain.compose(previous -> handle(waiter.action(), attempts()));
    }
    return chain;
  }

  /**
   * A board action whose diff would change nothing on the board (the patch engine committed nothing):
   * applied, as the board already is what it asks, but no revision and no envelope.
   */
  private Future<Void> unchanged(AgentAction action, CommitAttempts attempts) {
    tally.unchangedBoard();
    LOG.atInfo()
        .addKeyValue("runId", request.runId())
        .addKeyValue("verb", action.name())
        .addKeyValue("actionId", action.id())
        .addKeyValue("rev", board().revision())
        .addKeyValue("conflicts", attempts.refused())
        .log("action.unchanged");
    return Future.succeededFuture();
  }

  /** At the end of the stream, what still waits refers to shapes that never came: dropped, with the reason. */
  void dropDeferred() {
    for (Deferred waiter : deferred) {
      tally.drop();
      logDropped(waiter.action(), waiter.reason());
    }
    deferred.clear();
  }

  private void logDropped(AgentAction action, String reason) {
    LOG.atInfo()
        .addKeyValue("runId", request.runId())
        .addKeyValue("verb", action.name())
        .addKeyValue("actionId", action.id())
        .addKeyValue("reason", reason)
        .log("action.dropped");
  }

  /** What became of the run's actions so far. */
  ActionTally tally() {
    return tally;
  }

  /**
   * Adds to the run's final status what the counts do not tell, when there is any: what its batches
   * skipped or placed top-level, how many actions changed nothing ({@code unchanged}), the actions
   * dropped because their shapes were deleted ({@code targetsDeleted}) or locked ({@code locked}), the
   * actions written in another dialect ({@code aliases}).
   */
  void addOutcomesTo(JsonObject summary) {
    batchIssues.addTo(summary);
    tally.addTo(summary);
    deletedTargets.addTo(summary);
    lockedTargets.addTo(summary);
    aliases.addTo(summary);
  }
}
