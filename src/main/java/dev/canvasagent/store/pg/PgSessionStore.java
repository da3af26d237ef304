package dev.canvasagent.store.pg;

import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.UnknownSession;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/** Sessions in PostgreSQL; the envelope seq is advanced by the database, so two nodes never reuse one. */
final class PgSessionStore implements SessionStore {
  private final Pool pool;

  PgSessionStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Session> create(Session session) {
    return pool.withTransaction(connection ->
            connection.preparedQuery(Sql.ENSURE_ROOM).execute(Tuple.of(session.roomId()))
                .compose(ensured -> connection.preparedQuery(Sql.INSERT_SESSION)
                    .execute(Tuple.of(session.id(), session.roomId(), session.model()))))
        .compose(inserted -> find(session.id()))
        .map(Optional::orElseThrow);
  }

  @Override
  public Future<Optional<Session>> find(String sessionId) {
    return pool.preparedQuery(Sql.FIND_SESSION)
        .execute(Tuple.of(sessionId))
        .map(rows -> rows.rowCount() == 0 ? Optional.empty() : Optional.of(toSession(rows.iterator().next())));
  }

  private static Session toSession(Row row) {
    return new Session(
        row.getString("id"),
        row.getString("room_id"),
        row.getString("model"),
        row.getOffsetDateTime("created_at").toInstant().toEpochMilli());
  }

  @Override
  public Future<Long> nextSeq(String sessionId) {
    return pool.preparedQuery(Sql.NEXT_SESSION_SEQ)
        .execute(Tuple.of(sessionId))
        .compose(rows -> rows.rowCount() == 1
            ? Future.succeededFuture(rows.iterator().next().getLong("last_seq"))
            : Future.failedFuture(new UnknownSession(sessionId)));
  }

  @Override
  public Future<Origin> fixOrigin(String sessionId, Origin proposed) {
    return pool.preparedQuery(Sql.FIX_SESSION_ORIGIN)
        .execute(Tuple.of(sessionId, proposed.x(), proposed.y()))
        .compose(rows -> {
          if (rows.rowCount() != 1) {
            return Future.failedFuture(new UnknownSession(sessionId));
          }
          Row row = rows.iterator().next();
          return Future.succeededFuture(new Origin(row.getDouble("origin_x"), row.getDouble("origin_y")));
        });
  }
}
