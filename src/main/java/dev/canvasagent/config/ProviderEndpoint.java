package dev.canvasagent.config;

import java.util.List;
import java.util.Optional;

/**
 * Where a model provider is reached and with which key: the settings {@code providers.<name>.baseUrl}
 * (default {@code defaultBaseUrl}; empty: none) and {@code .apiKey} (default empty), set by {@code
 * <variablePrefix>_BASE_URL} and {@code <variablePrefix>_API_KEY}. The providers that use it are
 * declared in {@code model/ProviderCatalog}. The key is secret; the two meanings are the
 * configuration table's. A provider whose endpoint has no base URL, or no key when {@code
 * keyRequired}, is known but cannot be called.
 */
public record ProviderEndpoint(
    String name,
    String variablePrefix,
    boolean keyRequired,
    String defaultBaseUrl,
    String keyMeaning,
    String baseUrlMeaning) {

  /** The default base URL is checked as the setting's own, when the endpoint is declared. */
  public ProviderEndpoint {
    baseUrl(name, variablePrefix, defaultBaseUrl, baseUrlMeaning);
  }

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
        "providers." + name + ".apiKey", keyVariable(), Check.apiKey(), "", keyMeaning);
  }

  Setting baseUrl() {
    return baseUrl(name, variablePrefix, defaultBaseUrl, baseUrlMeaning);
  }

  private static Setting baseUrl(
      String name, String variablePrefix, String defaultBaseUrl, String meaning) {
    return Setting.of(
        "providers." + name + ".baseUrl",
        variablePrefix + "_BASE_URL",
        Check.baseUrl(),
        defaultBaseUrl,
        meaning);
  }

  List<Setting> settings() {
    return List.of(apiKey(), baseUrl());
  }

  AppConfig.Endpoint read(ConfigValues values) {
    String baseUrl = values.text(baseUrl());
    return new AppConfig.Endpoint(baseUrl, values.text(apiKey()));
  }
}
