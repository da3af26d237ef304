package dev.canvasagent.catalog;

/** An action that cannot be made valid; the message is the reason, safe to log and to show the model. */
public final class ActionRejected extends RuntimeException {
  public ActionRejected(String reason) {
    super(reason, null, false, false);
  }
}
