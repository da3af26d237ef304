package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.TodoChange;
import dev.canvasagent.bus.TodoItem;
import dev.canvasagent.bus.TodoList;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.TodoStore.Status;
import dev.canvasagent.store.TodoStore.Todo;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * Turns one {@code todo} action's params into a change of the session's list. Without {@code id} it
 * adds an item (at the end unless {@code position} is given; a {@code status} other than open resolves
 * it at once; {@code ref} names it for the rest of the run). With {@code id} (a stored id, or a ref of
 * this run) it updates that item; an id the session does not have is NOT_FOUND and nothing changes.
 * Changes and lists travel as the bus's {@link TodoChange} and {@link TodoList}.
 */
final class TodoCommands {
  private final TodoStore todos;

  TodoCommands(TodoStore todos) {
    this.todos = todos;
  }

  /** The system line on {@code agent:chat} that tells {@code change}. */
  static String chatText(TodoChange change) {
    TodoItem todo = change.item();
    return switch (change.op()) {
      case RESOLVED -> "todo " + todo.status() + ": " + todo.text();
      case REORDERED -> "todo moved to " + todo.position() + ": " + todo.text();
      default -> "todo " + change.op().wireName() + ": " + todo.text();
    };
  }

  /** A stored todo as the bus carries it. */
  static TodoItem item(Todo todo) {
    return new TodoItem(
        todo.id(),
        todo.text(),
        todo.status().wireName(),
        todo.position(),
        todo.createdAtMillis(),
        todo.resolvedAtMillis());
  }

  /** The session's todos in list order. */
  Future<TodoList> list(String sessionId) {
    return todos
        .list(sessionId)
        .recover(error -> Failure.storeFailed("read the todos", error))
        .map(items -> new TodoList(sessionId, items.stream().map(TodoCommands::item).toList()));
  }

  Future<TodoChange> apply(String sessionId, JsonObject params, Map<String, String> refs) {
    String id = params.getString("id");
    String text = params.getString("text");
    String ref = params.getString("ref");
    Integer position = params.getInteger("position");
    Status status = null;
    if (params.getString("status") != null) {
      status = Status.fromWire(params.getString("status")).orElse(null);
      if (status == null) {
        return Failure.future(
            FailureCode.ACTION_INVALID, "todo status must be open, done or skipped");
      }
    }
    if (id == null) {
      if (text == null) {
        return Failure.future(
            FailureCode.ACTION_INVALID, "a new todo needs a text; an update needs an id");
      }
      if (ref != null && refs.containsKey(ref)) {
        return Failure.future(
            FailureCode.ACTION_INVALID, "ref '" + ref + "' already names a todo of this run");
      }
      return add(sessionId, text, status, position)
          .map(
              todo -> {
                if (ref != null) {
                  refs.put(ref, todo.id());
                }
                return new TodoChange(
                    todo.status() == Status.OPEN ? TodoChange.Op.ADDED : TodoChange.Op.RESOLVED,
                    item(todo));
              });
    }
    if (ref != null) {
      return Failure.future(
          FailureCode.ACTION_INVALID, "ref names a new todo; an update names only its id");
    }
    String storedId = refs.getOrDefault(id, id);
    Status newStatus = status;
    return stored(todos.update(sessionId, storedId, text, newStatus, position))
        .compose(
            updated -> {
              if (updated.isEmpty()) {
                return Failure.future(
                    FailureCode.NOT_FOUND, "session " + sessionId + " has no todo '" + id + "'");
              }
              return Future.succeededFuture(
                  new TodoChange(op(text, newStatus, position), item(updated.get())));
            });
  }

  private Future<Todo> add(String sessionId, String text, Status status, Integer position) {
    Future<Integer> at =
        position != null
            ? Future.succeededFuture(position)
            : stored(todos.list(sessionId))
                .map(items -> items.stream().mapToInt(Todo::position).max().orElse(-1) + 1);
    Future<Todo> added = at.compose(where -> stored(todos.add(sessionId, text, where)));
    if (status == null || status == Status.OPEN) {
      return added;
    }
    return added.compose(
        todo ->
            stored(todos.update(sessionId, todo.id(), null, status, null))
                .map(updated -> updated.orElse(todo)));
  }

  private static TodoChange.Op op(String text, Status status, Integer position) {
    if (status == Status.DONE || status == Status.SKIPPED) {
      return TodoChange.Op.RESOLVED;
    }
    if (text == null && status == null && position != null) {
      return TodoChange.Op.REORDERED;
    }
    return TodoChange.Op.UPDATED;
  }

  private static <T> Future<T> stored(Future<T> operation) {
    return operation.recover(error -> Failure.storeFailed("change the todos", error));
  }
}
