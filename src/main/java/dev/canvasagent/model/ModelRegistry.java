package dev.canvasagent.model;

import java.util.List;
import java.util.Optional;

/**
 * The providers this server can call, looked up by the model key a run asks for ({@code
 * provider:model}, or {@code debug/fake}). A key may name a provider that is known but not
 * configured (its API key or base URL is not set): {@link #resolve} says which setting is missing.
 */
public final class ModelRegistry {
  private final List<ModelProvider> providers;
  private final List<String> knownModels;

  /** {@code knownModels}: the keys to offer in error messages, e.g. {@code debug/fake}, {@code anthropic:<model>}. */
  public ModelRegistry(List<ModelProvider> providers, List<String> knownModels) {
    this.providers = List.copyOf(providers);
    this.knownModels = List.copyOf(knownModels);
  }

  /** What a model key resolves to. */
  public sealed interface Resolution {}

  /** The provider that serves the key, ready to be called. */
  public record Ready(ModelProvider provider) implements Resolution {}

  /** No provider serves the key (unknown provider, or an empty model name). */
  public record Unknown(String message) implements Resolution {}

  /** A known provider that cannot be called until {@code setting} is set. */
  public record NotConfigured(String setting, String message) implements Resolution {}

  public Resolution resolve(String model) {
    for (ModelProvider provider : providers) {
      if (provider.serves(model)) {
        Optional<String> missing = provider.missingSetting();
        if (missing.isPresent()) {
          return new NotConfigured(
              missing.get(),
              "model '"
                  + model
                  + "' needs "
                  + missing.get()
                  + ": set it in the server's environment (or its providers config) and restart");
        }
        return new Ready(provider);
      }
    }
    return new Unknown("unknown model '" + model + "'; this server knows " + knownModels());
  }

  /** The provider ready to serve {@code model}, if any. */
  public Optional<ModelProvider> provider(String model) {
    return resolve(model) instanceof Ready ready ? Optional.of(ready.provider()) : Optional.empty();
  }

  /** The model keys to offer in error messages. */
  public List<String> knownModels() {
    return knownModels;
  }
}
