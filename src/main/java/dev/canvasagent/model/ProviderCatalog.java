package dev.canvasagent.model;

import dev.canvasagent.config.ProviderEndpoint;
import dev.canvasagent.model.anthropic.AnthropicMessagesProtocol;
import dev.canvasagent.model.anthropic.AnthropicStreamNormalizer;
import dev.canvasagent.model.gemini.GeminiProtocol;
import dev.canvasagent.model.gemini.GeminiStreamNormalizer;
import dev.canvasagent.model.http.HttpProvider;
import dev.canvasagent.model.openai.ChatCompletionsProtocol;
import dev.canvasagent.model.openai.ChatCompletionsStreamNormalizer;
import dev.canvasagent.model.openai.ResponsesProtocol;
import dev.canvasagent.model.openai.ResponsesStreamNormalizer;
import java.util.List;

/**
 * Every HTTP model provider this server can call, one declaration each: its key prefix, its endpoint
 * (environment variables, and what they mean in the configuration table), how its request is written
 * and how its stream is read. The loader reads the endpoints' settings from here; their defaults are
 * {@code conf/config.json}'s ({@code providers.<name>}). Two providers may share an endpoint, as
 * {@code openai:} and {@code openai-responses:} share one account.
 */
public final class ProviderCatalog {
  static final ProviderEndpoint ANTHROPIC = new ProviderEndpoint("anthropic", "ANTHROPIC", true,
      "Key for `anthropic:<model>` (sent as `x-api-key`). Secret: never logged or shown in errors.",
      "Where the Messages API is (`/v1/messages` is appended).");
  static final ProviderEndpoint OPENAI = new ProviderEndpoint("openai", "OPENAI", true,
      "Key for `openai:<model>` and `openai-responses:<model>` (`Authorization: Bearer`). Secret.",
      "With `/v1`, as the OpenAI SDKs take it (`/chat/completions`, `/responses` are appended).");
  static final ProviderEndpoint GEMINI = new ProviderEndpoint("gemini", "GEMINI", true,
      "Key for `google:<model>` (`x-goog-api-key`). Secret.",
      "Where the Gemini API is (`/v1beta/models/<model>:streamGenerateContent?alt=sse` is appended).");
  /** A local server (Ollama, llama.cpp, vLLM) may want no key: only its base URL is required. */
  static final ProviderEndpoint OPENAI_COMPATIBLE = new ProviderEndpoint("openaiCompatible", "OPENAI_COMPATIBLE", false,
      "Optional key for that server (`Authorization: Bearer` only when set). Secret.",
      "With `/v1`, e.g. `http://127.0.0.1:11434/v1` (Ollama); unset → `openai-compatible:<model>` is refused with `MODEL_NOT_CONFIGURED`.");

  public static final List<HttpProvider> ALL = List.of(
      new HttpProvider("anthropic", ANTHROPIC,
          (endpoint, model) -> new AnthropicMessagesProtocol(endpoint.baseUrl(), endpoint.apiKey(),
              model.promptCacheDisabled() ? null : model.anthropicCacheTtl()),
          AnthropicStreamNormalizer::new),
      new HttpProvider("openai", OPENAI,
          (endpoint, model) -> ChatCompletionsProtocol.openai(endpoint.baseUrl(), endpoint.apiKey()),
          ChatCompletionsStreamNormalizer::new),
      new HttpProvider("openai-responses", OPENAI,
          (endpoint, model) -> new ResponsesProtocol(endpoint.baseUrl(), endpoint.apiKey()),
          ResponsesStreamNormalizer::new),
      new HttpProvider("google", GEMINI,
          (endpoint, model) -> new GeminiProtocol(endpoint.baseUrl(), endpoint.apiKey()),
          GeminiStreamNormalizer::new),
      new HttpProvider("openai-compatible", OPENAI_COMPATIBLE,
          (endpoint, model) -> ChatCompletionsProtocol.compatible(endpoint.baseUrl(), endpoint.apiKey()),
          ChatCompletionsStreamNormalizer::new));

  private ProviderCatalog() {}

  /** The endpoints of {@link #ALL}, each once, in the order a provider first names it. */
  public static List<ProviderEndpoint> endpoints() {
    return ALL.stream().map(HttpProvider::endpoint).distinct().toList();
  }
}
