package dev.canvasagent.store.pg;

import dev.canvasagent.store.TodoStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Todos in the table {@code canvas_agent_todos}. */
final class PgTodoStore implements TodoStore {
  private final Pool pool;

  PgTodoStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<List<Todo>> list(String sessionId) {
    return pool.preparedQuery(Sql.LIST_TODOS)
        .execute(Tuple.of(sessionId))
        .map(
            rows -> {
              List<Todo> todos = new ArrayList<>();
              rows.forEach(row -> todos.add(toTodo(row)));
              return todos;
            });
  }

  @Override
  public Future<Todo> add(String sessionId, String text, int position) {
    return pool.preparedQuery(Sql.INSERT_TODO)
        .execute(Tuple.of(sessionId, text, position))
        .map(rows -> toTodo(rows.iterator().next()));
  }

  @Override
  public Future<Optional<Todo>> update(
      String sessionId, String todoId, String text, Status status, Integer position) {
    Tuple arguments =
        Tuple.tuple()
            .addString(sessionId)
            .addString(todoId)
            .addString(text)
            .addString(status == null ? null : status.wireName())
            .addInteger(position);
    return pool.preparedQuery(Sql.UPDATE_TODO)
        .execute(arguments)
        .map(
            rows ->
                rows.rowCount() == 0
                    ? Optional.empty()
                    : Optional.of(toTodo(rows.iterator().next())));
  }

  private static Todo toTodo(Row row) {
    OffsetDateTime resolvedAt = row.getOffsetDateTime("resolved_at");
    return new Todo(
        row.getString("id"),
        row.getString("session_id"),
        row.getString("text"),
        Status.fromWire(row.getString("status")).orElseThrow(),
        row.getInteger("position"),
        row.getOffsetDateTime("created_at").toInstant().toEpochMilli(),
        resolvedAt == null ? null : resolvedAt.toInstant().toEpochMilli());
  }
}
