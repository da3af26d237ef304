package dev.canvasagent.patch;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.BoardRevisionPage;
import dev.canvasagent.bus.BoardRevisionsQuery;
import dev.canvasagent.bus.BoardSnapshot;
import dev.canvasagent.bus.CanvasChange;
import dev.canvasagent.bus.CommittedRevision;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.store.RevisionConflict;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of canvas state. A board change is a record diff applied atomically against a
 * base revision and stored as the next revision; a stale base is refused with REVISION_CONFLICT and
 * changes nothing.
 */
public final class PatchEngineVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(PatchEngineVerticle.class);
  static final int MAX_REVISIONS_PER_PAGE = 500;

  private final Store store;
  private long commits;
  private long conflicts;
  private long refused;
  private long unchanged;

  public PatchEngineVerticle(Store store) {
    this.store = store;
  }

  @Override
  public String name() {
    return "patch-engine";
  }

  @Override
  protected Future<?> startVerticle() {
    return Future.join(
        answer(Address.PATCH_BOARD_GET, this::getBoard),
        answer(Address.PATCH_BOARD_APPLY, request -> applyToBoard(request, false)),
        answer(Address.PATCH_BOARD_CHANGE, request -> applyToBoard(request, true)),
        answer(Address.PATCH_BOARD_REVISIONS, this::listRevisions));
  }

  private Future<BoardSnapshot> getBoard(RoomRef room) {
    return store
        .boards()
        .load(room.roomId())
        .map(BoardSnapshot::new)
        .recover(error -> Future.failedFuture(storeFailure(error)));
  }

  /**
   * Checks the diff against the board at its base revision (every record valid, the board still whole
   * afterwards), then commits it conditionally on that revision. A person's change is published on
   * {@code canvas:change}; an agent's goes out in the runner's envelope. A diff that would change
   * nothing at its base revision is neither committed nor published: a revision is a change, so
   * history and every client see only real ones (the answer says {@code changed: false}).
   */
  private Future<CommittedRevision> applyToBoard(
      BoardChangeRequest request, boolean publishAsChange) {
    String roomId = request.roomId();
    long baseRevision = request.baseRevision();
    RecordDiff diff = request.diff();
    String author = request.author();
    return store
        .boards()
        .load(roomId)
        .recover(error -> Future.failedFuture(storeFailure(error)))
        .compose(
            board -> {
              if (board.revision() != baseRevision) {
                return Future.failedFuture(
                    new RevisionConflict(roomId, baseRevision, board.revision()));
              }
              Optional<String> problem = RecordChecks.problem(board, diff);
              if (problem.isPresent()) {
                return Future.failedFuture(new Failure(FailureCode.INVALID_RECORD, problem.get()));
              }
              if (!board.changedBy(diff)) {
                return Future.succeededFuture(unchanged(roomId, author, baseRevision));
              }
              return store
                  .boards()
                  .commit(roomId, baseRevision, diff, author)
                  .map(revision -> committed(roomId, author, diff, revision, publishAsChange));
            })
        .recover(
            error -> {
              if (error instanceof RevisionConflict conflict) {
                conflicts++;
                return Future.failedFuture(
                    new Failure(FailureCode.REVISION_CONFLICT, conflict.getMessage()));
              }
              if (error instanceof Failure failure) {
                refused++;
                return Future.failedFuture(failure);
              }
              return Future.failedFuture(storeFailure(error));
            });
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

  private static Failure storeFailure(Throwable error) {
    return Failure.storeUnavailable("read or change the board", error);
  }

  @Override
  protected Future<JsonObject> health() {
    JsonObject report =
        new JsonObject()
            .put("commits", commits)
            .put("conflicts", conflicts)
            .put("refused", refused)
            .put("unchanged", unchanged);
    return store
        .ping()
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
