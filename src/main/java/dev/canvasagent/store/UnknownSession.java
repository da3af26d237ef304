package dev.canvasagent.store;

/** A session id the store does not know. */
public final class UnknownSession extends RuntimeException {
  public UnknownSession(String sessionId) {
    super("no session " + sessionId, null, false, false);
  }
}
