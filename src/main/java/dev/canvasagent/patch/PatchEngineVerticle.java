package dev.canvasagent.patch;

import dev.canvasagent.board.AssetSources;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardCacheState;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.BoardHead;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.BoardRevisionPage;
import dev.canvasagent.bus.BoardRevisionsQuery;
import dev.canvasagent.bus.BoardSnapshot;
import dev.canvasagent.bus.CanvasChange;
import dev.canvasagent.bus.CommittedRevision;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunRevertRequest;
import dev.canvasagent.bus.RunReverted;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.RevisionConflict;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of canvas state. A board change is a record diff applied atomically against a
 * base revision and stored as the next revision; a stale base is refused with REVISION_CONFLICT and
 * changes nothing. The boards of the rooms it writes are held in memory ({@link RoomBoards}): a change
 * is checked against the held board, reading only what the diff touches, and committed in the store
 * conditionally on its base revision, which decides; the held board then advances by the diff. What
 * it holds is shared with the node's other verticles by revision ({@link NodeBoards}). Operations on
 * one room run one at a time ({@link RoomTurns}).
 */
public final class PatchEngineVerticle extends CanvasVerticle {
  /** How many times a revert is worked out again when someone commits while it is being made. */
  private static final int REVERT_ATTEMPTS = 5;

  private static final Logger LOG = LoggerFactory.getLogger(PatchEngineVerticle.class);
  static final int MAX_REVISIONS_PER_PAGE = 500;

  /** How long the health probe waits for the store to answer a query (the route waits 2000 ms). */
  static final long STORE_PING_DEADLINE_MS = 1_500;

  private final Store store;
  private final AppConfig.BoardCache cache;
  private final NodeBoards shared;
  private final RoomTurns turns = new RoomTurns();
  private RoomBoards boards;
  private long commits;
  private long conflicts;
  private long rechecked;
  private long refused;
  private long unchanged;
  private CanvasMetrics meters;

  public PatchEngineVerticle(Store store, AppConfig.BoardCache cache, NodeBoards shared) {
    this.store = store;
    this.cache = cache;
    this.shared = shared;
  }

  @Override
  public String name() {
    return "patch-engine";
  }

  @Override
  protected Future<?> startVerticle() {
    meters = CanvasMetrics.of(vertx);
    boards =
        new RoomBoards(
            vertx, store.boards(), shared, cache.maxBytes(), cache.idleMs(), this::evicted);
    return Future.join(
        List.of(
            answer(Address.PATCH_BOARD_GET, this::getBoard),
            answer(Address.PATCH_BOARD_HEAD, this::headOf),
            answer(Address.PATCH_BOARD_STATE, this::stateOf),
            answer(Address.PATCH_BOARD_APPLY, request -> applyToBoard(request, false)),
            answer(Address.PATCH_BOARD_CHANGE, request -> applyToBoard(request, true)),
            answer(Address.PATCH_BOARD_REVISIONS, this::listRevisions),
            answer(
                Address.PATCH_BOARD_REVERT,
                request ->
                    revert(request, REVERT_ATTEMPTS).onSuccess(done -> reverted(request, done)))));
  }

  @Override
  public Future<?> stop() {
    // What this node held is no longer kept current: its readers go to the store through whoever
    // answers next.
    if (boards != null) {
      boards.close();
    }
    return Future.succeededFuture();
  }

  /** The current board, caught up with the store; or the board at a revision, while it is the room's. */
  private Future<BoardSnapshot> getBoard(BoardRef ref) {
    String roomId = ref.roomId();
    return turns
        .next(
            roomId,
            () ->
                ref.revision() == null
                    ? boards.current(roomId)
                    : boards.room(roomId).compose(room -> atRevision(room, ref.revision())))
        .map(room -> new BoardSnapshot(room.board()))
        .recover(PatchEngineVerticle::asFailure);
  }

  /**
   * The held room at {@code revision}: caught up first when it is behind it. A revision the room has
   * moved past is not kept: REVISION_CONFLICT, as for a commit against it.
   */
  private Future<CachedRoom> atRevision(CachedRoom room, long revision) {
    if (room.revision() < revision) {
      return boards
          .catchUp(room)
          .compose(
              caught ->
                  caught.revision() == revision
                      ? Future.succeededFuture(caught)
                      : Future.failedFuture(
                          new RevisionConflict(room.roomId(), revision, caught.revision())));
    }
    return room.revision() == revision
        ? Future.succeededFuture(room)
        : Future.failedFuture(new RevisionConflict(room.roomId(), revision, room.revision()));
  }

  /** The current revision; the board is then held here, in the node's boards, at that revision. */
  /**
   * {@code patch.board.state}: the held board's revision and the store's, for the admin view. Neither
   * loads nor catches up the held board, so it shows a held board that is behind as it is.
   */
  private Future<BoardCacheState> stateOf(RoomRef room) {
    Long held = boards.heldRevision(room.roomId());
    return store
        .boards()
        .currentRevision(room.roomId())
        .recover(error -> Failure.storeFailed("read the board's revision", error))
        .map(stored -> new BoardCacheState(room.roomId(), held, stored));
  }

  private Future<BoardHead> headOf(RoomRef room) {
    return turns
        .next(room.roomId(), () -> boards.current(room.roomId()))
        .map(held -> new BoardHead(room.roomId(), held.revision()))
        .recover(PatchEngineVerticle::asFailure);
  }

  /**
   * Checks the diff against the held board at its base revision (every record valid, the board still
   * whole afterwards), then commits it conditionally on that revision. A person's change is published
   * on {@code canvas:change}; an agent's goes out in the runner's envelope. A diff that would change
   * nothing at its base revision is neither committed nor published: a revision is a change, so
   * history and every client see only real ones (the answer says {@code changed: false}).
   */
  private Future<CommittedRevision> applyToBoard(
      BoardChangeRequest request, boolean publishAsChange) {
    return turns
        .next(
            request.roomId(),
            () ->
                boards
                    .room(request.roomId())
                    .compose(room -> decide(room, request, publishAsChange, true)))
        .recover(
            error -> {
              if (error instanceof RevisionConflict) {
                conflicts++;
              } else if (error instanceof Failure failure
                  && failure.code() == FailureCode.INVALID_RECORD) {
                refused++;
              }
              Future<CommittedRevision> answer = asFailure(error);
              meters.patchRejected(
                  Failure.of(answer.cause()).code().name().toLowerCase(Locale.ROOT));
              return answer;
            });
  }

  /**
   * The change judged against the held room. The held board is a revision the store committed, but
   * maybe not its newest: before anything is answered from it alone (a conflict because the change's
   * base is ahead of it, a refusal, nothing to change) the room is caught up once and the change
   * judged again; a commit the store refuses as stale is judged again against the caught-up board.
   */
  private Future<CommittedRevision> decide(
      CachedRoom room, BoardChangeRequest request, boolean publishAsChange, boolean mayCatchUp) {
    String roomId = request.roomId();
    long base = request.baseRevision();
    RecordDiff diff = request.diff();
    if (base != room.revision()) {
      if (base > room.revision() && mayCatchUp) {
        return again(room, request, publishAsChange);
      }
      return Future.failedFuture(new RevisionConflict(roomId, base, room.revision()));
    }
    Optional<String> problem = RecordChecks.problem(room.board(), diff);
    boolean changes = problem.isEmpty() && room.board().changedBy(diff);
    if (!changes && mayCatchUp) {
      return again(room, request, publishAsChange);
    }
    if (problem.isPresent()) {
      return Future.failedFuture(new Failure(FailureCode.INVALID_RECORD, problem.get()));
    }
    if (!changes) {
      return Future.succeededFuture(unchanged(roomId, request.author(), base));
    }
    return uploaded(roomId, diff)
        .compose(checked -> commit(room, request, publishAsChange, mayCatchUp));
  }

  private Future<CommittedRevision> commit(
      CachedRoom room, BoardChangeRequest request, boolean publishAsChange, boolean mayCatchUp) {
    String roomId = request.roomId();
    RecordDiff diff = request.diff();
    return store
        .boards()
        .commit(roomId, request.baseRevision(), diff, request.author(), request.runId())
        .compose(
            revision -> {
              boards.committed(room, diff, revision);
              return Future.succeededFuture(
                  committed(roomId, request.author(), diff, revision, publishAsChange));
            },
            error -> {
              if (error instanceof RevisionConflict conflict && mayCatchUp) {
                // Another node (or a person through one) committed: this node's board was behind.
                rechecked++;
                return boards
                    .catchUpTo(room, conflict.currentRevision())
                    .compose(caught -> decide(caught, request, publishAsChange, false));
              }
              if (!(error instanceof RevisionConflict)) {
                // The commit may or may not have landed: only the store knows the room now.
                boards.evict(roomId, RoomBoards.Eviction.UNKNOWN_OUTCOME);
              }
              return Future.failedFuture(error);
            });
  }

  /**
   * Succeeds when every file the diff's asset records point at has been uploaded to the room; else
   * INVALID_RECORD naming the first record that points at a missing one. Asked of the store only for
   * a diff that has such records.
   */
  private Future<Void> uploaded(String roomId, RecordDiff diff) {
    Map<String, String> sources = AssetSources.of(diff);
    if (sources.isEmpty()) {
      return Future.succeededFuture();
    }
    return store
        .assets()
        .existing(roomId, sources.keySet())
        .compose(
            found -> {
              for (Map.Entry<String, String> source : sources.entrySet()) {
                if (!found.contains(source.getKey())) {
                  return Future.failedFuture(
                      new Failure(
                          FailureCode.INVALID_RECORD,
                          source.getValue()
                              + " props.src: room "
                              + roomId
                              + " has no asset "
                              + source.getKey()
                              + "; upload the file first (POST /api/rooms/"
                              + roomId
                              + "/assets)"));
                }
              }
              return Future.succeededFuture();
            });
  }

  /** The room caught up with the store, then the change judged against it once more. */
  private Future<CommittedRevision> again(
      CachedRoom room, BoardChangeRequest request, boolean publishAsChange) {
    return boards.catchUp(room).compose(caught -> decide(caught, request, publishAsChange, false));
  }

  private void evicted(String roomId, RoomBoards.Eviction why) {
    LOG.atDebug()
        .addKeyValue("roomId", roomId)
        .addKeyValue("reason", why.name().toLowerCase())
        .addKeyValue("heldBytes", boards.bytes())
        .log("board_cache.evicted");
  }

  /** A conflict, a refusal or a store failure, as the bus answers it. */
  private static <T> Future<T> asFailure(Throwable error) {
    if (error instanceof RevisionConflict conflict) {
      return Future.failedFuture(new Failure(FailureCode.REVISION_CONFLICT, conflict.getMessage()));
    }
    if (error instanceof Failure failure) {
      return Future.failedFuture(failure);
    }
    return Future.failedFuture(storeFailure(error));
  }

  private CommittedRevision unchanged(String roomId, String author, long revision) {
    unchanged++;
    LOG.atDebug()
        .addKeyValue("roomId", roomId)
        .addKeyValue("rev", revision)
        .addKeyValue("author", author)
        .log("board.unchanged");
    return new CommittedRevision(revision, false);
  }

  private CommittedRevision committed(
      String roomId, String author, RecordDiff diff, long revision, boolean publishAsChange) {
    commits++;
    LOG.atDebug()
        .addKeyValue("roomId", roomId)
        .addKeyValue("rev", revision)
        .addKeyValue("author", author)
        .addKeyValue("put", diff.put().size())
        .addKeyValue("remove", diff.remove().size())
        .log("board.committed");
    if (publishAsChange) {
      RoomTopic.CANVAS_CHANGE.publish(
          vertx.eventBus(), roomId, new CanvasChange(revision, diff, author));
    }
    return new CommittedRevision(revision, true);
  }

  private Future<BoardRevisionPage> listRevisions(BoardRevisionsQuery query) {
    int limit = Math.min(query.limit(), MAX_REVISIONS_PER_PAGE);
    return store
        .boards()
        .revisions(query.roomId(), query.after(), limit)
        .map(
            revisions ->
                new BoardRevisionPage(
                    revisions.stream()
                        .map(
                            stored ->
                                new BoardRevisionPage.Revision(
                                    stored.revision(),
                                    stored.diff(),
                                    stored.author(),
                                    stored.createdAtMillis()))
                        .toList()))
        .recover(error -> Future.failedFuture(storeFailure(error)));
  }

  /**
   * Reverts a run: the plan worked out from the current board and its history up to it, committed as
   * one person's change (published on {@code canvas:change}) conditionally on that board's revision.
   * Someone committing in between makes it work the plan out again, a few times at most.
   */
  private Future<RunReverted> revert(RunRevertRequest request, int attemptsLeft) {
    String roomId = request.roomId();
    return turns
        .next(roomId, () -> boards.current(roomId))
        .map(CachedRoom::board)
        .compose(
            board ->
                history(roomId, 0, board.revision(), new ArrayList<>())
                    .map(history -> RunRevertPlan.of(request.runId(), history, board))
                    .compose(
                        plan -> {
                          if (plan.diff().isEmpty()) {
                            return Future.succeededFuture(
                                new RunReverted(
                                    board.revision(), false, List.of(), plan.keptChanged()));
                          }
                          return applyToBoard(
                                  new BoardChangeRequest(
                                      roomId,
                                      board.revision(),
                                      plan.diff(),
                                      "revert:" + request.runId()),
                                  true)
                              .map(
                                  committed ->
                                      new RunReverted(
                                          committed.revision(),
                                          committed.changed(),
                                          committed.changed() ? plan.reverted() : List.of(),
                                          plan.keptChanged()));
                        }))
        .recover(
            error -> {
              if (attemptsLeft > 1 && Failure.of(error).code() == FailureCode.REVISION_CONFLICT) {
                return revert(request, attemptsLeft - 1);
              }
              return asFailure(error);
            });
  }

  private void reverted(RunRevertRequest request, RunReverted done) {
    LOG.atInfo()
        .addKeyValue("roomId", request.roomId())
        .addKeyValue("runId", request.runId())
        .addKeyValue("rev", done.revision())
        .addKeyValue("changed", done.changed())
        .addKeyValue("reverted", done.reverted().size())
        .addKeyValue("keptChanged", done.keptChanged().size())
        .log("board.run_reverted");
  }

  /** The room's kept revisions after {@code after} up to {@code through}, page by page. */
  private Future<List<BoardStore.BoardRevision>> history(
      String roomId, long after, long through, List<BoardStore.BoardRevision> gathered) {
    if (after >= through) {
      return Future.succeededFuture(gathered);
    }
    return store
        .boards()
        .revisions(roomId, after, MAX_REVISIONS_PER_PAGE)
        .compose(
            page -> {
              if (page.isEmpty()) {
                return Future.succeededFuture(gathered);
              }
              gathered.addAll(page);
              return history(roomId, page.get(page.size() - 1).revision(), through, gathered);
            });
  }

  private static Failure storeFailure(Throwable error) {
    return Failure.storeUnavailable("read or change the board", error);
  }

  @Override
  protected Future<JsonObject> health() {
    JsonObject report =
        new JsonObject()
            .put("commits", commits)
            .put("conflicts", conflicts)
            .put("rechecked", rechecked)
            .put("refused", refused)
            .put("unchanged", unchanged)
            .put("boardCache", boards.stats());
    return store
        .ping()
        // Inside the health route's probe timeout, so that a store that hangs is reported as such.
        .timeout(STORE_PING_DEADLINE_MS, TimeUnit.MILLISECONDS)
        .map(
            pong ->
                report
                    .put("ok", true)
                    .put("store", new JsonObject().put("kind", store.kind()).put("ok", true)))
        .recover(
            error ->
                Future.succeededFuture(
                    report
                        .put("ok", false)
                        .put(
                            "store",
                            new JsonObject()
                                .put("kind", store.kind())
                                .put("ok", false)
                                .put(
                                    "error",
                                    Failure.storeUnavailable("answer the health probe", error)
                                        .getMessage()))));
  }
}
