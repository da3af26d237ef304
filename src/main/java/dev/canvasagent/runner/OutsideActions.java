package dev.canvasagent.runner;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.bus.AcceptedAction;
import dev.canvasagent.bus.ActionOutcome;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.OutsideAction;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.catalog.dialect.ClosestVerbs;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.nodeboards.BoardLookup;
import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.store.SessionStore.Session;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Board actions from outside a run ({@code runner.act}: an MCP client's calls), each through exactly
 * what a run's action goes through ({@link ActionCommit}: the sanitizer against the room's board, the
 * patch engine conditional on its revision, conflicts judged again and retried within the patience),
 * then published as an envelope of the caller's session ({@link EnvelopePublisher}). A refused action
 * commits nothing and publishes nothing: every check that can refuse it comes before the commit, and
 * the seq is taken only after it. Calls of one session in one room wait for each other, so they land
 * in the order they arrived, as a run's actions do.
 */
final class OutsideActions {
  private static final Logger LOG = LoggerFactory.getLogger(OutsideActions.class);

  private final Vertx vertx;
  private final SessionStore sessions;
  private final ActionCatalog catalog;
  private final BoardLookup boards;
  private final long conflictPatienceMs;

  /** The last call of each session in each room, while one is under way: the next one waits for it. */
  private final Map<String, Future<?>> lastCalls = new HashMap<>();

  OutsideActions(
      Vertx vertx,
      SessionStore sessions,
      ActionCatalog catalog,
      BoardLookup boards,
      long conflictPatienceMs) {
    this.vertx = vertx;
    this.sessions = sessions;
    this.catalog = catalog;
    this.boards = boards;
    this.conflictPatienceMs = conflictPatienceMs;
  }

  /** Applied once the same session's earlier calls in the room have settled, however they ended. */
  Future<ActionOutcome> act(OutsideAction request) {
    String key = request.roomId() + "\n" + request.sessionId();
    Future<?> before = lastCalls.getOrDefault(key, Future.succeededFuture());
    Future<ActionOutcome> call = before.transform(settled -> apply(request));
    lastCalls.put(key, call);
    call.onComplete(
        done -> {
          lastCalls.remove(key, call);
          if (done.failed()) {
            LOG.atInfo()
                .addKeyValue("roomId", request.roomId())
                .addKeyValue("sessionId", request.sessionId())
                .addKeyValue("actionId", request.action().id())
                .addKeyValue("verb", request.action().name())
                .addKeyValue("code", Failure.of(done.cause()).code())
                .log("outside_action.refused");
          }
        });
    return call;
  }

  /** How many sessions have calls under way. */
  int busySessions() {
    return lastCalls.size();
  }

  private Future<ActionOutcome> apply(OutsideAction request) {
    AgentAction action = request.action();
    var entry = catalog.entry(action.name());
    if (entry.isEmpty()) {
      return Failure.future(
          FailureCode.ACTION_INVALID, ClosestVerbs.reason(action.name(), catalog.names()));
    }
    if (entry.get().verb().kind() != VerbKind.BOARD) {
      return Failure.future(
          FailureCode.ACTION_INVALID,
          action.name()
              + " is not a board verb; only board verbs can be called from outside a run");
    }
    return session(request)
        .compose(
            session -> {
              WriterBoard board = new WriterBoard(boards, request.roomId(), seen -> {});
              ActionCommit commits =
                  new ActionCommit(
                      vertx.eventBus(),
                      request.roomId(),
                      request.author().name(),
                      null,
                      board,
                      () -> true);
              CommitAttempts attempts =
                  new CommitAttempts(vertx, conflictPatienceMs, waitedMs -> {});
              return board
                  .reload()
                  .compose(loaded -> commits.attempt(action, frameOf(session), attempts))
                  .compose(result -> outcome(request, result, attempts));
            });
  }

  /** The caller's session, in the room it names. */
  private Future<Session> session(OutsideAction request) {
    return sessions
        .find(request.sessionId())
        .recover(error -> Failure.storeFailed("read the session", error))
        .compose(
            found -> {
              if (found.isEmpty()) {
                return Failure.future(
                    FailureCode.SESSION_NOT_FOUND, "no session " + request.sessionId());
              }
              if (!found.get().roomId().equals(request.roomId())) {
                return Failure.future(
                    FailureCode.SESSION_ROOM_MISMATCH,
                    "session " + request.sessionId() + " belongs to another room");
              }
              return Future.succeededFuture(found.get());
            });
  }

  /**
   * The session's coordinates, as a run of it sees the board: relative to its origin once its first
   * run fixed one, the page's before.
   */
  private static CoordinateFrame frameOf(Session session) {
    Origin origin = session.origin();
    return origin == null
        ? CoordinateFrame.atOrigin()
        : new CoordinateFrame(origin.x(), origin.y(), Map.of());
  }

  private Future<ActionOutcome> outcome(
      OutsideAction request, ActionCommit.Result result, CommitAttempts attempts) {
    if (result instanceof ActionCommit.Refused refused) {
      return Future.failedFuture(refused.failure());
    }
    if (result instanceof ActionCommit.NotStored notStored) {
      return Future.failedFuture(notStored.failure());
    }
    if (!(result instanceof ActionCommit.Committed committed)) {
      // Judged (not a board verb, checked above) or Stopped (never asked to stop): nothing done.
      return Failure.future(
          FailureCode.ACTION_INVALID, request.action().name() + " is not a board verb");
    }
    AcceptedAction accepted = committed.accepted();
    long revision = committed.revision().revision();
    LOG.atInfo()
        .addKeyValue("roomId", request.roomId())
        .addKeyValue("sessionId", request.sessionId())
        .addKeyValue("actionId", request.action().id())
        .addKeyValue("verb", accepted.action().name())
        .addKeyValue("rev", revision)
        .addKeyValue("changed", committed.revision().changed())
        .addKeyValue("conflicts", attempts.refused())
        .log("outside_action.applied");
    ActionOutcome outcome = describe(request, accepted, committed);
    if (!committed.revision().changed()) {
      return Future.succeededFuture(outcome);
    }
    EnvelopePublisher envelopes =
        new EnvelopePublisher(
            vertx.eventBus(),
            sessions,
            request.roomId(),
            request.sessionId(),
            () -> {},
            () -> true,
            CanvasMetrics.of(vertx));
    return envelopes.publish(accepted.action(), accepted.diff(), revision).map(outcome);
  }

  private static ActionOutcome describe(
      OutsideAction request, AcceptedAction accepted, ActionCommit.Committed committed) {
    boolean changed = committed.revision().changed();
    RecordDiff diff = accepted.diff();
    Board before = committed.before();
    List<String> created = new ArrayList<>();
    List<String> updated = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    if (changed) {
      for (JsonObject record : diff.put()) {
        String id = record.getString("id");
        if (id != null && id.startsWith(ShapeIds.PREFIX)) {
          (before.record(id).isPresent() ? updated : created).add(id);
        }
      }
      diff.remove().stream().filter(id -> id.startsWith(ShapeIds.PREFIX)).forEach(removed::add);
    }
    JsonObject given =
        request.action().params() == null ? new JsonObject() : request.action().params();
    JsonObject applied = accepted.action().params();
    return new ActionOutcome(
        request.action().id(),
        accepted.action().name(),
        committed.revision().revision(),
        changed,
        created,
        updated,
        removed,
        AppliedParams.adjusted(given, applied),
        AppliedParams.dropped(applied),
        applied);
  }
}
