package dev.canvasagent.store.pg;

import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.UnknownSession;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs in {@code canvas_agent_runs}. Every change of state is one statement conditional on the state
 * it leaves, and staleness is judged by the database's clock, so nodes sharing the database agree.
 */
final class PgRunStore implements RunStore {
  /** PostgreSQL's foreign_key_violation: the run's session is gone. */
  private static final String FOREIGN_KEY_VIOLATION = "23503";

  /** PostgreSQL's unique_violation: on a claim, another run of the session is running. */
  private static final String UNIQUE_VIOLATION = "23505";

  private final Pool pool;

  PgRunStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Accepted> accept(NewRun run) {
    Tuple arguments =
        Tuple.tuple()
            .addString(run.runId())
            .addString(run.sessionId())
            .addString(run.roomId())
            .addString(run.idempotencyKey())
            .addInteger(run.messageChars())
            .addString(run.requestFingerprint())
            .addValue(run.followUp())
            .addValue(run.request());
    return pool.withTransaction(
            connection ->
                connection
                    .preparedQuery(Sql.INSERT_QUEUED_RUN)
                    .execute(arguments)
                    .compose(
                        inserted -> {
                          Future<Accepted> accepted =
                              inserted.rowCount() == 1
                                  ? Future.succeededFuture(
                                      new Accepted(toRun(inserted.iterator().next()), true))
                                  : connection
                                      .preparedQuery(Sql.FIND_RUN)
                                      .execute(Tuple.of(run.runId()))
                                      .compose(
                                          found -> {
                                            RunRecord first = toRun(found.iterator().next());
                                            return Objects.equals(
                                                    first.requestFingerprint(),
                                                    run.requestFingerprint())
                                                ? Future.succeededFuture(new Accepted(first, false))
                                                : Future.failedFuture(IdempotencyKeys.reused());
                                          });
                          return accepted.compose(
                              result ->
                                  connection
                                      .preparedQuery(Sql.TOUCH_SESSION)
                                      .execute(Tuple.of(run.sessionId()))
                                      .map(touched -> result));
                        }))
        .recover(
            error ->
                error instanceof PgException pg && FOREIGN_KEY_VIOLATION.equals(pg.getSqlState())
                    ? Future.failedFuture(new UnknownSession(run.sessionId()))
                    : Future.failedFuture(error));
  }

  @Override
  public Future<Claim> claim(NewRun run, String nodeId) {
    return pool.preparedQuery(Sql.START_RUN)
        .execute(
            Tuple.of(
                run.runId(),
                run.sessionId(),
                run.roomId(),
                run.messageChars(),
                run.followUp(),
                nodeId))
        .map(rows -> rows.rowCount() == 1 ? Claim.STARTED : Claim.GONE)
        .recover(
            error ->
                error instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState())
                    ? Future.succeededFuture(Claim.BUSY)
                    : Future.failedFuture(error));
  }

  @Override
  public Future<List<Orphan>> orphans(long staleAfterMs, Collection<String> heldHere) {
    return pool.preparedQuery(Sql.ORPHANED_QUEUED_RUNS)
        .execute(Tuple.of(staleAfterMs).addArrayOfString(heldHere.toArray(String[]::new)))
        .map(
            rows -> {
              List<Orphan> orphans = new ArrayList<>();
              rows.forEach(
                  row ->
                      orphans.add(
                          new Orphan(
                              toRun(row),
                              (JsonObject) row.getJson("request"),
                              row.getString("asked_by_state"))));
              return orphans;
            });
  }

  @Override
  public Future<List<String>> queuedBefore(String sessionId, String runId) {
    return pool.preparedQuery(Sql.QUEUED_RUNS_BEFORE)
        .execute(Tuple.of(sessionId, runId))
        .map(
            rows -> {
              List<String> before = new ArrayList<>();
              rows.forEach(row -> before.add(row.getString("id")));
              return before;
            });
  }

  @Override
  public Future<List<String>> takeOver(
      Collection<String> runIds, long staleAfterMs, String nodeId) {
    if (runIds.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return pool.preparedQuery(Sql.TAKE_OVER_RUNS)
        .execute(
            Tuple.tuple()
                .addArrayOfString(runIds.toArray(String[]::new))
                .addLong(staleAfterMs)
                .addString(nodeId))
        .map(
            rows -> {
              List<String> taken = new ArrayList<>();
              rows.forEach(row -> taken.add(row.getString("id")));
              return taken;
            });
  }

  @Override
  public Future<Void> release(Collection<String> runIds) {
    if (runIds.isEmpty()) {
      return Future.succeededFuture();
    }
    return pool.preparedQuery(Sql.RELEASE_RUNS)
        .execute(Tuple.tuple().addArrayOfString(runIds.toArray(String[]::new)))
        .mapEmpty();
  }

  @Override
  public Future<Optional<Running>> running(String sessionId) {
    return pool.preparedQuery(Sql.RUNNING_RUN_OF_SESSION)
        .execute(Tuple.of(sessionId))
        .map(
            rows ->
                rows.rowCount() == 0
                    ? Optional.empty()
                    : Optional.of(
                        new Running(
                            rows.iterator().next().getString("id"),
                            rows.iterator().next().getString("node_id"))));
  }

  @Override
  public Future<Optional<RunRecord>> adopt(String runId) {
    return pool.preparedQuery(Sql.ADOPT_QUEUED_RUN)
        .execute(Tuple.of(runId))
        .map(PgRunStore::firstRun);
  }

  @Override
  public Future<Boolean> finish(String runId, String state, JsonObject detail) {
    return pool.preparedQuery(Sql.FINISH_RUN)
        .execute(Tuple.of(runId, state, detail))
        .map(rows -> rows.rowCount() == 1);
  }

  @Override
  public Future<Void> heartbeat(Collection<String> runIds) {
    if (runIds.isEmpty()) {
      return Future.succeededFuture();
    }
    return pool.preparedQuery(Sql.HEARTBEAT_RUNS)
        .execute(Tuple.tuple().addArrayOfString(runIds.toArray(String[]::new)))
        .mapEmpty();
  }

  @Override
  public Future<List<RunRecord>> sweepInterrupted(
      long staleAfterMs, JsonObject detail, Collection<String> heldHere) {
    return pool.preparedQuery(Sql.SWEEP_INTERRUPTED_RUNS)
        .execute(Tuple.of(staleAfterMs, detail).addArrayOfString(heldHere.toArray(String[]::new)))
        .map(PgRunStore::toRuns);
  }

  @Override
  public Future<Optional<RunRecord>> find(String runId) {
    return pool.preparedQuery(Sql.FIND_RUN).execute(Tuple.of(runId)).map(PgRunStore::firstRun);
  }

  @Override
  public Future<List<RunRecord>> recent(String sessionId, int limit) {
    return pool.preparedQuery(Sql.RECENT_RUNS)
        .execute(Tuple.of(sessionId, limit))
        .map(PgRunStore::toRuns);
  }

  private static List<RunRecord> toRuns(RowSet<Row> rows) {
    List<RunRecord> runs = new ArrayList<>();
    rows.forEach(row -> runs.add(toRun(row)));
    return runs;
  }

  private static RunRecord toRun(Row row) {
    Object detail = row.getJson("detail");
    return new RunRecord(
        row.getString("id"),
        row.getString("session_id"),
        row.getString("room_id"),
        row.getString("state"),
        detail instanceof JsonObject object ? object : new JsonObject(),
        row.getInteger("message_chars"),
        row.getOffsetDateTime("created_at").toInstant().toEpochMilli(),
        row.getOffsetDateTime("updated_at").toInstant().toEpochMilli(),
        row.getString("request_fingerprint"),
        row.getJson("follow_up") instanceof JsonObject followUp ? followUp : null);
  }

  /** The first run of {@code rows}, if any. */
  private static Optional<RunRecord> firstRun(RowSet<Row> rows) {
    return rows.rowCount() == 0 ? Optional.empty() : Optional.of(toRun(rows.iterator().next()));
  }
}
