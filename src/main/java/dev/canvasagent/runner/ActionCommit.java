package dev.canvasagent.runner;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.bus.AcceptedAction;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.CommittedRevision;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.SanitizeRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import java.util.function.BooleanSupplier;

/**
 * One action through the sanitizer and the patch engine, the same way for a run's action ({@link
 * ActionPipeline}) and an outside one ({@link OutsideActions}): judged against the writer's board at
 * its revision, a board verb's diff committed conditionally on that revision, and on REVISION_CONFLICT
 * (the sanitizer's board gone, or the commit stale) judged again against the fresh board after {@link
 * CommitAttempts}' pause, so the action is always judged on what is there when it lands. What became
 * of it is the caller's to act on; only a conflict that outlasts the patience fails the future.
 */
final class ActionCommit {
  /** What became of one action. */
  sealed interface Result permits Refused, Judged, Committed, NotStored, Stopped {}

  /** The sanitizer refused it (ACTION_INVALID, SHAPE_NOT_FOUND, DUPLICATE_CREATE, or a bus failure). */
  record Refused(Failure failure) implements Result {}

  /** Accepted, and not a board verb: nothing to commit. */
  record Judged(AcceptedAction accepted) implements Result {}

  /**
   * Accepted and handed to the patch engine, which committed it ({@code revision.changed()}) or found
   * it would change nothing; {@code before} is the board it was judged against.
   */
  record Committed(AcceptedAction accepted, Board before, CommittedRevision revision)
      implements Result {}

  /** Accepted, but the patch engine refused its diff for another reason than a newer revision. */
  record NotStored(AcceptedAction accepted, Failure failure) implements Result {}

  /** The writer stopped (a run ending) while the action was under way: nothing more was done. */
  record Stopped() implements Result {}

  private final EventBus bus;
  private final String roomId;
  private final String author;
  private final String runId;
  private final WriterBoard board;
  private final BooleanSupplier goOn;

  /** The requester's view (page space), where the sanitizer places what an action does not. */
  private Viewport view;

  /**
   * @param author who the commit names: {@code agent:<session>} for a run, the outside actor's name
   * @param runId the run whose actions these are, kept with each revision (null outside a run)
   * @param goOn asked after each judgement and each pause: false stops the action there
   */
  ActionCommit(
      EventBus bus,
      String roomId,
      String author,
      String runId,
      WriterBoard board,
      BooleanSupplier goOn) {
    this.bus = bus;
    this.roomId = roomId;
    this.author = author;
    this.runId = runId;
    this.board = board;
    this.goOn = goOn;
  }

  void useView(Viewport view) {
    this.view = view;
  }

  /** {@code action} judged in {@code frame} and, for a board verb, committed. */
  Future<Result> attempt(AgentAction action, CoordinateFrame frame, CommitAttempts attempts) {
    Board judgedOn = board.current();
    return Address.SANITIZER_SANITIZE
        .ask(bus, new SanitizeRequest(roomId, action, judgedOn.revision(), frame, view))
        .transform(
            judged -> {
              if (judged.succeeded()) {
                return commit(action, judgedOn, judged.result(), frame, attempts);
              }
              Failure failure = Failure.of(judged.cause());
              if (failure.code() == FailureCode.REVISION_CONFLICT) {
                // The board it was to be judged against is no longer the room's (someone committed
                // meanwhile) nor held: judged again against the fresh board, as after a commit's.
                return retry(action, frame, attempts, failure);
              }
              return Future.succeededFuture(new Refused(failure));
            });
  }

  private Future<Result> commit(
      AgentAction original,
      Board judgedOn,
      AcceptedAction accepted,
      CoordinateFrame frame,
      CommitAttempts attempts) {
    if (!goOn.getAsBoolean()) {
      return Future.succeededFuture(new Stopped());
    }
    if (VerbKind.valueOf(accepted.kind()) != VerbKind.BOARD) {
      return Future.succeededFuture(new Judged(accepted));
    }
    return Address.PATCH_BOARD_APPLY
        .ask(
            bus,
            new BoardChangeRequest(roomId, judgedOn.revision(), accepted.diff(), author, runId))
        .transform(
            stored -> {
              if (stored.succeeded()) {
                CommittedRevision committed = stored.result();
                if (committed.changed()) {
                  board.committed(accepted.diff(), committed.revision());
                }
                return Future.succeededFuture(new Committed(accepted, judgedOn, committed));
              }
              Failure failure = Failure.of(stored.cause());
              if (failure.code() == FailureCode.REVISION_CONFLICT) {
                // Judged again against the fresh board: its shapes may have moved, or gone.
                return retry(original, frame, attempts, failure);
              }
              return Future.succeededFuture(new NotStored(accepted, failure));
            });
  }

  /** After a pause, the action judged again against the board as the room has it now. */
  private Future<Result> retry(
      AgentAction action, CoordinateFrame frame, CommitAttempts attempts, Failure conflict) {
    return attempts
        .refused(conflict)
        .compose(
            paused ->
                goOn.getAsBoolean()
                    ? board.reload().compose(reloaded -> attempt(action, frame, attempts))
                    : Future.succeededFuture(new Stopped()));
  }
}
