package dev.canvasagent.runner.context;

import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.ChatStore.ChatMessage;
import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * The session's chat so far (the person's earlier messages and what the agent said), oldest first.
 * Read fresh every run: it changes without the board changing, so it is not memoized.
 */
final class ChatHistoryPart implements PromptPart {
  @Override
  public String name() {
    return "chat";
  }

  @Override
  public int priority() {
    return 70;
  }

  @Override
  public boolean memoizable() {
    return false;
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<ChatMessage> messages = scope.inputs().chat();
    if (messages.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<ChatMessage> list = BudgetedList.of("Chat history {role, text}, oldest first", messages,
        message -> message.toJson().encode(), budgetBytes, BudgetedList.Keep.LAST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    JsonArray json = new JsonArray(list.kept().stream().map(ChatMessage::toJson).toList());
    return PartOutput.section(this, ModelContext.CHAT, json, list.text(), list.truncated());
  }
}
