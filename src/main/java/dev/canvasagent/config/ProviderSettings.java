package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.ArrayList;
import java.util.List;

/** {@code providers}: each endpoint's key and base URL, and how a provider call is retried and timed out. */
final class ProviderSettings {
  static final ProviderEndpoint ANTHROPIC = new ProviderEndpoint("anthropic", "ANTHROPIC", true,
      "Key for `anthropic:<model>` (sent as `x-api-key`). Secret: never logged or shown in errors.",
      "Where the Messages API is (`/v1/messages` is appended).");
  static final ProviderEndpoint OPENAI = new ProviderEndpoint("openai", "OPENAI", true,
      "Key for `openai:<model>` and `openai-responses:<model>` (`Authorization: Bearer`). Secret.",
      "With `/v1`, as the OpenAI SDKs take it (`/chat/completions`, `/responses` are appended).");
  static final ProviderEndpoint GEMINI = new ProviderEndpoint("gemini", "GEMINI", true,
      "Key for `google:<model>` (`x-goog-api-key`). Secret.",
      "Where the Gemini API is (`/v1beta/models/<model>:streamGenerateContent?alt=sse` is appended).");
  static final ProviderEndpoint OPENAI_COMPATIBLE = new ProviderEndpoint("openaiCompatible", "OPENAI_COMPATIBLE", false,
      "Optional key for that server (`Authorization: Bearer` only when set). Secret.",
      "With `/v1`, e.g. `http://127.0.0.1:11434/v1` (Ollama); unset → `openai-compatible:<model>` is refused with `MODEL_NOT_CONFIGURED`.");
  static final Setting RETRIES = Setting.of("providers.retries", "CANVAS_AGENT_MODEL_RETRIES", whole(0, 10),
      "Extra tries of a provider call that failed retryably before anything streamed (0–10).");
  static final Setting RETRY_MAX_DELAY_MS = Setting.of("providers.retryMaxDelayMs", "CANVAS_AGENT_MODEL_RETRY_MAX_DELAY_MS",
      whole(0, 120_000), "Longest pause before a try, a provider's `Retry-After` included (0–120000).");
  static final Setting IDLE_TIMEOUT_MS = Setting.of("providers.idleTimeoutMs", "CANVAS_AGENT_MODEL_IDLE_TIMEOUT_MS",
      whole(1_000, 600_000),
      "A provider call that receives no byte for this long (connecting included) fails with `stream_timeout` (1000–600000).");

  static final List<Setting> ALL = all();

  private ProviderSettings() {}

  private static List<Setting> all() {
    List<Setting> all = new ArrayList<>();
    List.of(ANTHROPIC, OPENAI, GEMINI, OPENAI_COMPATIBLE).forEach(endpoint -> all.addAll(endpoint.settings()));
    all.addAll(List.of(RETRIES, RETRY_MAX_DELAY_MS, IDLE_TIMEOUT_MS));
    return List.copyOf(all);
  }

  static AppConfig.Providers read(ConfigValues values) {
    return new AppConfig.Providers(
        ANTHROPIC.read(values),
        OPENAI.read(values),
        GEMINI.read(values),
        OPENAI_COMPATIBLE.read(values),
        values.whole(RETRIES),
        values.whole(RETRY_MAX_DELAY_MS),
        values.whole(IDLE_TIMEOUT_MS));
  }
}
