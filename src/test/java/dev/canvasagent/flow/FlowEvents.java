package dev.canvasagent.flow;

import dev.canvasagent.support.SseClient.SseEvent;
import java.util.function.Predicate;

/** What tests outside this package wait for on a room's events. */
public final class FlowEvents {
  private FlowEvents() {}

  /** The final status (done, error, canceled) of a session's run. */
  public static Predicate<SseEvent> finalStatusOf(String sessionId) {
    return RunFlowContract.finalStatusOf(sessionId);
  }
}
