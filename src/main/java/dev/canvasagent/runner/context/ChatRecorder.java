package dev.canvasagent.runner.context;

import dev.canvasagent.store.ChatStore;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records one run's chat into the session's history, in the order it happened: each write starts
 * after the one before, so the person's message comes before the agent's answers, and nobody waits
 * for them. A failed write is logged (without the text) and the next one still goes.
 */
public final class ChatRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(ChatRecorder.class);

  private final ChatStore chats;
  private final String sessionId;
  private final String runId;
  private Future<Void> writes = Future.succeededFuture();

  public ChatRecorder(ChatStore chats, String sessionId, String runId) {
    this.chats = chats;
    this.sessionId = sessionId;
    this.runId = runId;
  }

  public void user(String text) {
    record(ChatStore.ChatMessage.USER, text);
  }

  public void system(String text) {
    record(ChatStore.ChatMessage.SYSTEM, text);
  }

  public void assistant(String text) {
    record(ChatStore.ChatMessage.ASSISTANT, text);
  }

  private void record(String role, String text) {
    writes =
        writes
            .compose(previous -> chats.append(sessionId, runId, role, text))
            .<Void>mapEmpty()
            .otherwise(
                error -> {
                  LOG.atWarn()
                      .addKeyValue("sessionId", sessionId)
                      .addKeyValue("role", role)
                      .addKeyValue("error", error.getMessage())
                      .log("chat.not_recorded");
                  return null;
                });
  }

  /** Completes when every write so far has been tried. */
  public Future<Void> settled() {
    return writes;
  }
}
