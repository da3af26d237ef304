package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code providers}: each endpoint's key and base URL (declared in {@link
 * ProviderEndpoints}), and how a provider call is retried and timed out.
 */
final class ProviderSettings {
  static final Setting RETRIES =
      Setting.of(
          "providers.retries",
          "CANVAS_AGENT_MODEL_RETRIES",
          whole(0, 10),
          2,
          "Extra tries of a provider call that failed retryably before anything streamed (0–10).");
  static final Setting RETRY_MAX_DELAY_MS =
      Setting.of(
          "providers.retryMaxDelayMs",
          "CANVAS_AGENT_MODEL_RETRY_MAX_DELAY_MS",
          whole(0, 120_000),
          10_000,
          "Longest pause before a try, a provider's `Retry-After` included (0–120000).");
  static final Setting IDLE_TIMEOUT_MS =
      Setting.of(
          "providers.idleTimeoutMs",
          "CANVAS_AGENT_MODEL_IDLE_TIMEOUT_MS",
          whole(1_000, 600_000),
          60_000,
          "A provider call that receives no byte for this long (connecting included) fails with `stream_timeout` (1000–600000).");

  static final List<Setting> ALL = all();

  private ProviderSettings() {}

  private static List<Setting> all() {
    List<Setting> all = new ArrayList<>();
    ProviderEndpoints.ALL.forEach(endpoint -> all.addAll(endpoint.settings()));
    all.addAll(List.of(RETRIES, RETRY_MAX_DELAY_MS, IDLE_TIMEOUT_MS));
    return List.copyOf(all);
  }

  static AppConfig.Providers read(ConfigValues values) {
    Map<String, AppConfig.Endpoint> endpoints = new LinkedHashMap<>();
    ProviderEndpoints.ALL.forEach(
        endpoint -> endpoints.put(endpoint.name(), endpoint.read(values)));
    return new AppConfig.Providers(
        endpoints,
        values.whole(RETRIES),
        values.whole(RETRY_MAX_DELAY_MS),
        values.whole(IDLE_TIMEOUT_MS));
  }
}
