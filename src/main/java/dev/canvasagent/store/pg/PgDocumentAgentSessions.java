package dev.canvasagent.store.pg;

import dev.canvasagent.store.DocumentAgentSessions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Document-agent sessions in {@code canvas_doc_agent_sessions} and their turns in {@code
 * canvas_doc_agent_turns}. An append binds the session (first use), locks its row, checks its
 * document, numbers the new turns after its count and advances it, in one transaction: appends from
 * two nodes are serialized and never lose or reorder a turn.
 */
final class PgDocumentAgentSessions implements DocumentAgentSessions {
  private final Pool pool;

  PgDocumentAgentSessions(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Optional<Conversation>> find(String sessionId) {
    return pool.preparedQuery(Sql.FIND_DOC_AGENT_SESSION)
        .execute(Tuple.of(sessionId))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(Optional.<Conversation>empty());
              }
              Row session = rows.iterator().next();
              return pool.preparedQuery(Sql.LIST_DOC_AGENT_TURNS)
                  .execute(Tuple.of(sessionId))
                  .map(
                      turns -> {
                        List<JsonObject> read = new ArrayList<>();
                        turns.forEach(turn -> read.add(new JsonObject(turn.getString("turn"))));
                        return Optional.of(
                            new Conversation(
                                sessionId,
                                session.getString("doc_id"),
                                session.getString("last_seen_revision_id"),
                                read));
                      });
            });
  }

  @Override
  public Future<Void> append(
      String sessionId, String docId, List<JsonObject> turns, String lastSeenRevisionId) {
    return pool.withTransaction(
        connection ->
            connection
                .preparedQuery(Sql.BIND_DOC_AGENT_SESSION)
                .execute(Tuple.of(sessionId, docId))
                .compose(
                    bound ->
                        connection
                            .preparedQuery(Sql.LOCK_DOC_AGENT_SESSION)
                            .execute(Tuple.of(sessionId)))
                .compose(
                    locked -> {
                      Row session = locked.iterator().next();
                      if (!session.getString("doc_id").equals(docId)) {
                        return Future.failedFuture(new BoundToAnotherDocument(sessionId));
                      }
                      int first = session.getInteger("turn_count");
                      List<Tuple> rows = new ArrayList<>();
                      for (int i = 0; i < turns.size(); i++) {
                        rows.add(Tuple.of(sessionId, first + i, turns.get(i).encode()));
                      }
                      Future<?> inserted =
                          rows.isEmpty()
                              ? Future.succeededFuture()
                              : connection
                                  .preparedQuery(Sql.INSERT_DOC_AGENT_TURN)
                                  .executeBatch(rows);
                      return inserted.compose(
                          done ->
                              connection
                                  .preparedQuery(Sql.ADVANCE_DOC_AGENT_SESSION)
                                  .execute(Tuple.of(sessionId, turns.size(), lastSeenRevisionId))
                                  .<Void>mapEmpty());
                    }));
  }
}
