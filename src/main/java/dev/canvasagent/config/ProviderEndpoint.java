package dev.canvasagent.config;

import java.util.List;
import java.util.Optional;

/**
 * Where a model provider is reached and with which key: {@code providers.<name>.baseUrl} and {@code
 * .apiKey} in {@code conf/config.json}, set by {@code <variablePrefix>_BASE_URL} and {@code
 * <variablePrefix>_API_KEY}. Declared beside the providers that use it, in {@code
 * model/ProviderCatalog}. The key is secret; the two meanings are the configuration table's. A
 * provider whose endpoint has no base URL, or no key when {@code keyRequired}, is known but cannot be
 * called.
 */
public record ProviderEndpoint(
    String name,
    String variablePrefix,
    boolean keyRequired,
    String keyMeaning,
    String baseUrlMeaning) {

  public String keyVariable() {
    return variablePrefix + "_API_KEY";
  }

  public String baseUrlVariable() {
    return variablePrefix + "_BASE_URL";
  }

  /** The variable to set before a provider of this endpoint can be called, if any: the base URL first. */
  public Optional<String> missing(AppConfig.Endpoint configured) {
    if (!configured.hasBaseUrl()) {
      return Optional.of(baseUrlVariable());
    }
    return keyRequired && !configured.hasApiKey() ? Optional.of(keyVariable()) : Optional.empty();
  }

  Setting apiKey() {
    return Setting.secret(
        "providers." + name + ".apiKey", keyVariable(), Check.apiKey(), keyMeaning);
  }

  Setting baseUrl() {
    return Setting.of(
        "providers." + name + ".baseUrl", baseUrlVariable(), Check.baseUrl(), baseUrlMeaning);
  }

  List<Setting> settings() {
    return List.of(apiKey(), baseUrl());
  }

  AppConfig.Endpoint read(ConfigValues values) {
    String baseUrl = values.text(baseUrl());
    return new AppConfig.Endpoint(baseUrl, values.text(apiKey()));
  }
}
