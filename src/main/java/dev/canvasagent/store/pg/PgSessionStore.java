package dev.canvasagent.store.pg;

import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.UnknownSession;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Sessions in PostgreSQL; the envelope seq is advanced by the database, so two nodes never reuse one. */
final class PgSessionStore implements SessionStore {
  private final Pool pool;

  PgSessionStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Session> create(Session session, String requestFingerprint) {
    Tuple row =
        Tuple.tuple()
            .addString(session.id())
            .addString(session.roomId())
            .addString(session.model())
            .addString(session.title())
            .addString(requestFingerprint);
    return pool.withTransaction(
            connection ->
                connection
                    .preparedQuery(Sql.ENSURE_ROOM)
                    .execute(Tuple.of(session.roomId()))
                    .compose(ensured -> connection.preparedQuery(Sql.INSERT_SESSION).execute(row))
                    .compose(
                        inserted ->
                            inserted.rowCount() == 1
                                ? Future.succeededFuture()
                                : connection
                                    .preparedQuery(Sql.SESSION_REQUEST_FINGERPRINT)
                                    .execute(Tuple.of(session.id()))
                                    .compose(
                                        first ->
                                            Objects.equals(
                                                    first
                                                        .iterator()
                                                        .next()
                                                        .getString("request_fingerprint"),
                                                    requestFingerprint)
                                                ? Future.succeededFuture()
                                                : Future.failedFuture(IdempotencyKeys.reused()))))
        .compose(created -> find(session.id()))
        .map(Optional::orElseThrow);
  }

  @Override
  public Future<Optional<Session>> find(String sessionId) {
    return pool.preparedQuery(Sql.FIND_SESSION)
        .execute(Tuple.of(sessionId))
        .map(
            rows ->
                rows.rowCount() == 0
                    ? Optional.empty()
                    : Optional.of(toSession(rows.iterator().next())));
  }

  @Override
  public Future<List<Session>> list(String roomId, int limit) {
    return pool.preparedQuery(Sql.LIST_SESSIONS)
        .execute(Tuple.of(roomId, limit))
        .map(
            rows -> {
              List<Session> sessions = new ArrayList<>();
              rows.forEach(row -> sessions.add(toSession(row)));
              return sessions;
            });
  }

  @Override
  public Future<Optional<Session>> update(String sessionId, Changes changes) {
    Tuple arguments =
        Tuple.tuple()
            .addString(sessionId)
            .addString(changes.title())
            .addString(changes.model())
            .addValue(changes.contextItems());
    return pool.preparedQuery(Sql.UPDATE_SESSION)
        .execute(arguments)
        .map(
            rows ->
                rows.rowCount() == 0
                    ? Optional.empty()
                    : Optional.of(toSession(rows.iterator().next())));
  }

  @Override
  public Future<Deletion> delete(String sessionId) {
    return pool.withTransaction(
        connection ->
            connection
                .preparedQuery(Sql.LOCK_SESSION)
                .execute(Tuple.of(sessionId))
                .compose(
                    locked -> {
                      if (locked.rowCount() == 0) {
                        return Future.succeededFuture(Deletion.NOT_FOUND);
                      }
                      return connection
                          .preparedQuery(Sql.COUNT_LIVE_RUNS_OF_SESSION)
                          .execute(Tuple.of(sessionId))
                          .compose(
                              live ->
                                  live.iterator().next().getLong("live") > 0
                                      ? Future.succeededFuture(Deletion.BUSY)
                                      : deleteAtoms(connection, sessionId)
                                          .map(deleted -> Deletion.DELETED));
                    }));
  }

  private static Future<Void> deleteAtoms(SqlConnection connection, String sessionId) {
    Future<?> chain = Future.succeededFuture();
    for (String statement :
        List.of(
            Sql.DELETE_SESSION_CHAT,
            Sql.DELETE_SESSION_TODOS,
            Sql.DELETE_SESSION_RUNS,
            Sql.DELETE_SESSION)) {
      chain =
          chain.compose(
              previous -> connection.preparedQuery(statement).execute(Tuple.of(sessionId)));
    }
    return chain.mapEmpty();
  }

  private static Session toSession(Row row) {
    Double originX = row.getDouble("origin_x");
    Double originY = row.getDouble("origin_y");
    Object items = row.getJson("context_items");
    return new Session(
        row.getString("id"),
        row.getString("room_id"),
        row.getString("title"),
        row.getString("model"),
        originX == null || originY == null ? null : new Origin(originX, originY),
        items instanceof JsonArray array ? array : new JsonArray(),
        row.getOffsetDateTime("created_at").toInstant().toEpochMilli(),
        row.getOffsetDateTime("last_active_at").toInstant().toEpochMilli());
  }

  @Override
  public Future<Long> nextSeq(String sessionId) {
    return pool.preparedQuery(Sql.NEXT_SESSION_SEQ)
        .execute(Tuple.of(sessionId))
        .compose(
            rows ->
                rows.rowCount() == 1
                    ? Future.succeededFuture(rows.iterator().next().getLong("last_seq"))
                    : Future.failedFuture(new UnknownSession(sessionId)));
  }

  @Override
  public Future<Origin> fixOrigin(String sessionId, Origin proposed) {
    return pool.preparedQuery(Sql.FIX_SESSION_ORIGIN)
        .execute(Tuple.of(sessionId, proposed.x(), proposed.y()))
        .compose(
            rows -> {
              if (rows.rowCount() != 1) {
                return Future.failedFuture(new UnknownSession(sessionId));
              }
              Row row = rows.iterator().next();
              return Future.succeededFuture(
                  new Origin(row.getDouble("origin_x"), row.getDouble("origin_y")));
            });
  }
}
