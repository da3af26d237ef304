package dev.canvasagent.store.memory;

import dev.canvasagent.store.TodoStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Todos in memory, for the embedded default; forgotten on restart. */
final class MemoryTodoStore implements TodoStore {
  private static final Comparator<Todo> LIST_ORDER =
      Comparator.comparingInt(Todo::position).thenComparingLong(Todo::createdAtMillis);

  private final Object lock = new Object();
  private final Map<String, Todo> todos = new LinkedHashMap<>();

  @Override
  public Future<List<Todo>> list(String sessionId) {
    synchronized (lock) {
      List<Todo> items = new ArrayList<>();
      for (Todo todo : todos.values()) {
        if (todo.sessionId().equals(sessionId)) {
          items.add(todo);
        }
      }
      items.sort(LIST_ORDER);
      return Future.succeededFuture(items);
    }
  }

  @Override
  public Future<Todo> add(String sessionId, String text, int position) {
    synchronized (lock) {
      Todo todo =
          new Todo(
              UUID.randomUUID().toString(),
              sessionId,
              text,
              Status.OPEN,
              position,
              System.currentTimeMillis(),
              null);
      todos.put(todo.id(), todo);
      return Future.succeededFuture(todo);
    }
  }

  @Override
  public Future<Optional<Todo>> update(
      String sessionId, String todoId, String text, Status status, Integer position) {
    synchronized (lock) {
      Todo todo = todos.get(todoId);
      if (todo == null || !todo.sessionId().equals(sessionId)) {
        return Future.succeededFuture(Optional.empty());
      }
      Status newStatus = status == null ? todo.status() : status;
      Long resolvedAt =
          newStatus == Status.OPEN
              ? null
              : newStatus == todo.status() && todo.resolvedAtMillis() != null
                  ? todo.resolvedAtMillis()
                  : System.currentTimeMillis();
      Todo updated =
          new Todo(
              todo.id(),
              sessionId,
              text == null ? todo.text() : text,
              newStatus,
              position == null ? todo.position() : position,
              todo.createdAtMillis(),
              resolvedAt);
      todos.put(todoId, updated);
      return Future.succeededFuture(Optional.of(updated));
    }
  }

  void forget(String sessionId) {
    synchronized (lock) {
      todos.values().removeIf(todo -> todo.sessionId().equals(sessionId));
    }
  }
}
