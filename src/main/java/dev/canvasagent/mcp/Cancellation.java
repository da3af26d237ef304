package dev.canvasagent.mcp;

import java.util.ArrayList;
import java.util.List;

/**
 * A request the client may cancel ({@code notifications/cancelled} naming its id): a tool that can stop
 * what it started (a run) registers how with {@link #onCancel}. Cancelling a request that has already
 * answered, or one whose tool cannot stop, changes nothing, as the protocol allows.
 */
public final class Cancellation {
  private final List<Runnable> handlers = new ArrayList<>();
  private boolean cancelled;

  public void onCancel(Runnable handler) {
    if (cancelled) {
      handler.run();
    } else {
      handlers.add(handler);
    }
  }

  public boolean cancelled() {
    return cancelled;
  }

  void cancel() {
    if (!cancelled) {
      cancelled = true;
      handlers.forEach(Runnable::run);
      handlers.clear();
    }
  }
}
