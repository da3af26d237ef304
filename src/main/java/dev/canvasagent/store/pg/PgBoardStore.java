package dev.canvasagent.store.pg;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.RevisionConflict;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Boards in PostgreSQL: a commit is one transaction, conditional on the room's base revision. */
final class PgBoardStore implements BoardStore {
  private final Pool pool;

  PgBoardStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Long> currentRevision(String roomId) {
    return pool.preparedQuery(Sql.CURRENT_BOARD_REVISION)
        .execute(Tuple.of(roomId))
        .map(rows -> rows.rowCount() == 0 ? 0L : rows.iterator().next().getLong("board_rev"));
  }

  @Override
  public Future<Board> load(String roomId) {
    return pool.preparedQuery(Sql.LOAD_BOARD)
        .execute(Tuple.of(roomId))
        .map(rows -> toBoard(roomId, rows));
  }

  private static Board toBoard(String roomId, RowSet<Row> rows) {
    long revision = 0;
    Map<String, JsonObject> records = new LinkedHashMap<>();
    for (Row row : rows) {
      revision = row.getLong("board_rev");
      JsonObject record = (JsonObject) row.getJson("record");
      if (record != null) {
        records.put(record.getString("id"), record);
      }
    }
    return new Board(roomId, revision, records);
  }

  @Override
  public Future<Long> commit(
      String roomId, long baseRevision, RecordDiff diff, String author, String runId) {
    return pool.withTransaction(
        connection ->
            connection
                .preparedQuery(Sql.ENSURE_ROOM)
                .execute(Tuple.of(roomId))
                .compose(ensured -> advance(connection, roomId, baseRevision))
                .compose(
                    revision -> writeRevision(connection, roomId, revision, diff, author, runId)));
  }

  private static Future<Long> advance(SqlConnection connection, String roomId, long baseRevision) {
    return connection
        .preparedQuery(Sql.ADVANCE_BOARD_REVISION)
        .execute(Tuple.of(roomId, baseRevision))
        .compose(
            rows -> {
              if (rows.rowCount() == 1) {
                return Future.succeededFuture(rows.iterator().next().getLong("board_rev"));
              }
              return connection
                  .preparedQuery(Sql.CURRENT_BOARD_REVISION)
                  .execute(Tuple.of(roomId))
                  .compose(
                      current ->
                          Future.failedFuture(
                              new RevisionConflict(
                                  roomId,
                                  baseRevision,
                                  current.iterator().next().getLong("board_rev"))));
            });
  }

  private static Future<Long> writeRevision(
      SqlConnection connection,
      String roomId,
      long revision,
      RecordDiff diff,
      String author,
      String runId) {
    Future<?> written =
        connection
            .preparedQuery(Sql.INSERT_BOARD_REVISION)
            .execute(Tuple.of(roomId, revision, diff.toJson(), author, runId));
    if (!diff.remove().isEmpty()) {
      written =
          written.compose(
              done ->
                  connection
                      .preparedQuery(Sql.REMOVE_BOARD_RECORDS)
                      .execute(
                          Tuple.of(roomId).addArrayOfString(diff.remove().toArray(String[]::new))));
    }
    if (!diff.put().isEmpty()) {
      written =
          written.compose(
              done ->
                  connection
                      .preparedQuery(Sql.PUT_BOARD_RECORDS)
                      .execute(Tuple.of(roomId, new JsonArray(List.copyOf(diff.put())))));
    }
    return written.map(done -> revision);
  }

  @Override
  public Future<List<BoardRevision>> revisions(String roomId, long afterRevision, int limit) {
    return pool.preparedQuery(Sql.LIST_BOARD_REVISIONS)
        .execute(Tuple.of(roomId, afterRevision, limit))
        .map(
            rows -> {
              List<BoardRevision> revisions = new ArrayList<>();
              for (Row row : rows) {
                revisions.add(
                    new BoardRevision(
                        row.getLong("rev"),
                        RecordDiff.fromJson((JsonObject) row.getJson("diff")),
                        row.getString("author"),
                        row.getOffsetDateTime("created_at").toInstant().toEpochMilli(),
                        row.getString("run_id")));
              }
              return revisions;
            });
  }
}
