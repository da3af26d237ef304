package dev.canvasagent.model;

import java.util.function.Consumer;

/**
 * A model provider: streams its answer as {@link ModelEvent}s to {@code events}, on the caller's
 * Vert.x context, ending with exactly one {@code Stop} or {@code Error} unless canceled.
 */
public interface ModelProvider {
  /** The registry key's provider part, e.g. {@code debug} for {@code debug/fake}. */
  String id();

  /** Whether this provider serves the given model name. */
  boolean serves(String model);

  ModelCall stream(ModelRequest request, Consumer<ModelEvent> events);
}
