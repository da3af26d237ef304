package dev.canvasagent.store.pg;

import dev.canvasagent.store.ChatStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Chat histories in {@code canvas_agent_chat}; the serial id keeps the order messages were recorded in. */
final class PgChatStore implements ChatStore {
  private final Pool pool;

  PgChatStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<ChatMessage> append(String sessionId, String runId, String role, String text) {
    return pool.preparedQuery(Sql.INSERT_CHAT_MESSAGE)
        .execute(Tuple.of(sessionId, role, text, runId))
        .map(
            rows ->
                new ChatMessage(
                    role,
                    text,
                    rows.iterator()
                        .next()
                        .getOffsetDateTime("created_at")
                        .toInstant()
                        .toEpochMilli(),
                    runId));
  }

  @Override
  public Future<List<ChatMessage>> recent(String sessionId, int limit) {
    return pool.preparedQuery(Sql.LIST_RECENT_CHAT)
        .execute(Tuple.of(sessionId, limit))
        .map(
            rows -> {
              List<ChatMessage> newestFirst = new ArrayList<>();
              rows.forEach(
                  row ->
                      newestFirst.add(
                          new ChatMessage(
                              row.getString("role"),
                              row.getString("text"),
                              row.getOffsetDateTime("created_at").toInstant().toEpochMilli(),
                              row.getString("run_id"))));
              Collections.reverse(newestFirst);
              return newestFirst;
            });
  }
}
