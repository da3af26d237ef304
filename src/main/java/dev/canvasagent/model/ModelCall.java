package dev.canvasagent.model;

/** A streaming call under way; canceling it stops further events (no terminal event follows). */
public interface ModelCall {
  void cancel();
}
