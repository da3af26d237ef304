package dev.canvasagent.model;

/** A streaming call under way; canceling it stops further events (no terminal event follows). */
public interface ModelCall {
  void cancel();

  /** How many times the call was tried again after a failure before anything streamed (0 for most calls). */
  default int retries() {
    return 0;
  }
}
