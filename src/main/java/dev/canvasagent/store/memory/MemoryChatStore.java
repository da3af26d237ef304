package dev.canvasagent.store.memory;

import dev.canvasagent.store.ChatStore;
import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Chat histories in memory, forgotten on restart. Only a session's newest {@link #KEPT_PER_SESSION}
 * messages are kept: the prompt reads the last few, and the embedded store must not grow without bound.
 */
final class MemoryChatStore implements ChatStore {
  static final int KEPT_PER_SESSION = 1_000;

  private final Object lock = new Object();
  private final Map<String, Deque<ChatMessage>> sessions = new HashMap<>();

  @Override
  public Future<ChatMessage> append(String sessionId, String runId, String role, String text) {
    synchronized (lock) {
      ChatMessage message = new ChatMessage(role, text, System.currentTimeMillis(), runId);
      Deque<ChatMessage> history = sessions.computeIfAbsent(sessionId, id -> new ArrayDeque<>());
      history.addLast(message);
      if (history.size() > KEPT_PER_SESSION) {
        history.removeFirst();
      }
      return Future.succeededFuture(message);
    }
  }

  @Override
  public Future<List<ChatMessage>> recent(String sessionId, int limit) {
    synchronized (lock) {
      List<ChatMessage> history =
          new ArrayList<>(sessions.getOrDefault(sessionId, new ArrayDeque<>()));
      return Future.succeededFuture(
          List.copyOf(history.subList(Math.max(0, history.size() - limit), history.size())));
    }
  }

  void forget(String sessionId) {
    synchronized (lock) {
      sessions.remove(sessionId);
    }
  }
}
