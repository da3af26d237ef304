package dev.canvasagent.mcp;

/**
 * Where a long tool reports how far it is: {@code notifications/progress} on the call's own response
 * stream, when the client asked with a {@code progressToken}; nowhere otherwise.
 */
@FunctionalInterface
public interface ToolProgress {
  ToolProgress NONE = (progress, total, message) -> {};

  /** {@code progress} only grows; {@code total} is null when unknown; {@code message} may be null. */
  void report(double progress, Double total, String message);
}
