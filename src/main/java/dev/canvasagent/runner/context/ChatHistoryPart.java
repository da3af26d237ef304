package dev.canvasagent.runner.context;

import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.ChatStore.ChatMessage;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * The session's chat so far (the person's earlier messages and what the agent said), oldest first, the
 * last {@code context.chatMessages} of it (0: none).
 * Read fresh every run: it changes without the board changing, so it is not memoized.
 */
final class ChatHistoryPart implements PromptPart<List<ChatMessage>> {
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
  public String describedAs() {
    return "the chat so far";
  }

  @Override
  public Future<List<ChatMessage>> gather(ContextSources sources, RunRequest request) {
    int count = sources.config().chatMessages();
    if (count == 0) {
      return Future.succeededFuture(List.of());
    }
    return sources.store().chats().recent(request.sessionId(), count);
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    List<ChatMessage> messages = scope.gathered(this);
    if (messages == null || messages.isEmpty()) {
      return PartOutput.empty(this);
    }
    BudgetedList<ChatMessage> list =
        BudgetedList.of(
            "Chat history {role, text}, oldest first",
            messages,
            message -> message.toJson().encode(),
            budgetBytes,
            BudgetedList.Keep.LAST);
    if (list.kept().isEmpty()) {
      return PartOutput.empty(this).withTruncation();
    }
    JsonArray json = new JsonArray(list.kept().stream().map(ChatMessage::toJson).toList());
    return PartOutput.section(this, ModelContext.CHAT, json, list.text(), list.truncated());
  }
}
