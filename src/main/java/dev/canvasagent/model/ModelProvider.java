package dev.canvasagent.model;

import java.util.Optional;
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

  /**
   * The setting this provider still needs before it can be called (e.g. {@code ANTHROPIC_API_KEY}),
   * or empty when it is ready.
   */
  default Optional<String> missingSetting() {
    return Optional.empty();
  }

  ModelCall stream(ModelRequest request, Consumer<ModelEvent> events);
}
