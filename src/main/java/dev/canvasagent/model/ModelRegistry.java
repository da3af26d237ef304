package dev.canvasagent.model;

import java.util.List;
import java.util.Optional;

/** The providers this server can call, looked up by the model name a run asks for. */
public final class ModelRegistry {
  private final List<ModelProvider> providers;
  private final List<String> knownModels;

  public ModelRegistry(List<ModelProvider> providers, List<String> knownModels) {
    this.providers = List.copyOf(providers);
    this.knownModels = List.copyOf(knownModels);
  }

  public Optional<ModelProvider> provider(String model) {
    return providers.stream().filter(provider -> provider.serves(model)).findFirst();
  }

  /** The model names to offer in error messages. */
  public List<String> knownModels() {
    return knownModels;
  }
}
