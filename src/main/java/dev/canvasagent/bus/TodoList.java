package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A session's todos in list order ({@code scheduler.todos}'s answer). */
public record TodoList(String sessionId, List<TodoItem> todos) implements BusMessage {
  public TodoList {
    todos = List.copyOf(todos);
  }

  /**
   * Only the items whose status is {@code status} ({@code open}, {@code done}, {@code skipped}).
   */
  public TodoList withStatus(String status) {
    return new TodoList(
        sessionId, todos.stream().filter(todo -> todo.status().equals(status)).toList());
  }

  @Override
  public JsonObject toJson() {
    JsonArray items = new JsonArray();
    todos.forEach(todo -> items.add(todo.toJson()));
    return new JsonObject().put("sessionId", sessionId).put("todos", items);
  }

  public static TodoList fromJson(JsonObject json) {
    return new TodoList(
        json.getString("sessionId"),
        json.getJsonArray("todos", new JsonArray()).stream()
            .map(item -> TodoItem.fromJson((JsonObject) item))
            .toList());
  }
}
