package dev.canvasagent.model;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.anthropic.AnthropicMessagesProtocol;
import dev.canvasagent.model.gemini.GeminiProtocol;
import dev.canvasagent.model.http.HttpModelProvider;
import dev.canvasagent.model.http.Limits;
import dev.canvasagent.model.http.ProviderProtocol;
import dev.canvasagent.model.openai.ChatCompletionsProtocol;
import dev.canvasagent.model.openai.ResponsesProtocol;
import dev.canvasagent.security.CredentialRedactor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The five HTTP providers, sharing one HTTP client: {@code anthropic:}, {@code openai:}, {@code
 * openai-responses:}, {@code google:} and {@code openai-compatible:}. Each is registered whether or
 * not it is configured, so a run that names one without its key or base URL is told which variable
 * to set rather than that the model is unknown.
 */
public final class HttpProviders {
  /** The key forms, for error messages. */
  public static final List<String> KEYS = List.of(
      "anthropic:<model>", "openai:<model>", "openai-responses:<model>", "google:<model>", "openai-compatible:<model>");

  private final HttpClientAgent client;
  private final List<ModelProvider> providers;

  private HttpProviders(HttpClientAgent client, List<ModelProvider> providers) {
    this.client = client;
    this.providers = providers;
  }

  public static HttpProviders create(Vertx vertx, AppConfig config) {
    AppConfig.Providers settings = config.providers();
    HttpClientAgent client = vertx.createHttpClient(
        new HttpClientOptions()
            .setDecompressionSupported(false) // the stream must reach the decoder as it is sent
            .setKeepAlive(true),
        new PoolOptions().setHttp1MaxSize(64));
    Limits limits = new Limits(settings.retries(), settings.retryMaxDelayMs(), settings.idleTimeoutMs());
    CredentialRedactor redactor = CredentialRedactor.of(config);
    String cacheTtl = config.model().promptCacheDisabled() ? null : config.model().anthropicCacheTtl();
    AppConfig.Endpoint anthropic = settings.anthropic();
    AppConfig.Endpoint openai = settings.openai();
    AppConfig.Endpoint gemini = settings.gemini();
    AppConfig.Endpoint compatible = settings.openaiCompatible();
    List<ModelProvider> providers = new ArrayList<>();
    providers.add(provider(vertx, client, limits, redactor,
        new AnthropicMessagesProtocol(anthropic.baseUrl(), anthropic.apiKey(), cacheTtl),
        missing(anthropic, "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")));
    providers.add(provider(vertx, client, limits, redactor,
        ChatCompletionsProtocol.openai(openai.baseUrl(), openai.apiKey()),
        missing(openai, "OPENAI_BASE_URL", "OPENAI_API_KEY")));
    providers.add(provider(vertx, client, limits, redactor,
        new ResponsesProtocol(openai.baseUrl(), openai.apiKey()),
        missing(openai, "OPENAI_BASE_URL", "OPENAI_API_KEY")));
    providers.add(provider(vertx, client, limits, redactor,
        new GeminiProtocol(gemini.baseUrl(), gemini.apiKey()),
        missing(gemini, "GEMINI_BASE_URL", "GEMINI_API_KEY")));
    providers.add(provider(vertx, client, limits, redactor,
        ChatCompletionsProtocol.compatible(compatible.baseUrl(), compatible.apiKey()),
        compatible.hasBaseUrl() ? Optional.empty() : Optional.of("OPENAI_COMPATIBLE_BASE_URL")));
    return new HttpProviders(client, List.copyOf(providers));
  }

  public List<ModelProvider> providers() {
    return providers;
  }

  public Future<Void> close() {
    return client.close();
  }

  private static ModelProvider provider(Vertx vertx, HttpClientAgent client, Limits limits, CredentialRedactor redactor,
      ProviderProtocol protocol, Optional<String> missing) {
    return new HttpModelProvider(vertx, client, protocol, limits, missing, redactor);
  }

  private static Optional<String> missing(AppConfig.Endpoint endpoint, String baseUrlVariable, String keyVariable) {
    if (!endpoint.hasBaseUrl()) {
      return Optional.of(baseUrlVariable);
    }
    return endpoint.hasApiKey() ? Optional.empty() : Optional.of(keyVariable);
  }
}
