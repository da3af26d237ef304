package dev.canvasagent.runner.context;

import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.TodoStore.Todo;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The session's todo list {@code {id, text, status}} in list order. Read fresh every run, like the chat. */
final class TodosPart implements PromptPart<List<Todo>> {
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
  public String describedAs() {
    return "your todo list";
  }

  @Override
  public Future<List<Todo>> gather(ContextSources sources, RunRequest request) {
    return sources.store().todos().list(request.sessionId());
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<Todo> gathered = scope.gathered(this);
    List<JsonObject> todos =
        gathered == null ? List.of() : gathered.stream().map(TodosPart::item).toList();
    if (todos.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<JsonObject> list =
        BudgetedList.of(
            "Todo list {id, text, status}",
            todos,
            JsonObject::encode,
            budgetBytes,
            BudgetedList.Keep.FIRST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(
        this,
        ModelContext.TODOS,
        new JsonArray(List.copyOf(list.kept())),
        list.text(),
        list.truncated());
  }

  private static JsonObject item(Todo todo) {
    return new JsonObject()
        .put("id", todo.id())
        .put("text", todo.text())
        .put("status", todo.status().wireName());
  }
}
