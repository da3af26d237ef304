package dev.canvasagent.runner.context;

import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.TodoStore.Todo;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The session's todo list {@code {id, text, status}} in list order. Read fresh every run, like the chat. */
final class TodosPart implements PromptPart {
  @Override
  public String name() {
    return "todos";
  }

  @Override
  public int priority() {
    return 80;
  }

  @Override
  public boolean memoizable() {
    return false;
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<JsonObject> todos = scope.inputs().todos().stream().map(TodosPart::item).toList();
    if (todos.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<JsonObject> list = BudgetedList.of("Todo list {id, text, status}", todos, JsonObject::encode,
        budgetBytes, BudgetedList.Keep.FIRST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(this, ModelContext.TODOS, new JsonArray(List.copyOf(list.kept())), list.text(), list.truncated());
  }

  private static JsonObject item(Todo todo) {
    return new JsonObject().put("id", todo.id()).put("text", todo.text()).put("status", todo.status().wireName());
  }
}
