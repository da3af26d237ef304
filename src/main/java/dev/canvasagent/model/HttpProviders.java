package dev.canvasagent.model;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.model.http.HttpProvider;
import dev.canvasagent.model.http.Limits;
import dev.canvasagent.security.CredentialRedactor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.List;

/**
 * The HTTP providers of {@link ProviderCatalog}, sharing one HTTP client. Each is registered whether
 * or not it is configured, so a run that names one without its key or base URL is told which variable
 * to set rather than that the model is unknown.
 */
public final class HttpProviders {
  /** The key forms, for error messages: {@code anthropic:<model>}, … */
  public static final List<String> KEYS =
      ProviderCatalog.ALL.stream().map(HttpProvider::keyForm).toList();

  private final HttpClientAgent client;
  private final List<ModelProvider> providers;

  private HttpProviders(HttpClientAgent client, List<ModelProvider> providers) {
    this.client = client;
    this.providers = providers;
  }

  public static HttpProviders create(Vertx vertx, AppConfig config) {
    AppConfig.Providers settings = config.providers();
    HttpClientAgent client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setDecompressionSupported(false) // the stream must reach the decoder as it is sent
                .setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(64));
    Limits limits =
        new Limits(settings.retries(), settings.retryMaxDelayMs(), settings.idleTimeoutMs());
    CredentialRedactor redactor = CredentialRedactor.of(config);
    List<ModelProvider> providers =
        ProviderCatalog.ALL.stream()
            .<ModelProvider>map(
                declared ->
                    declared.connect(
                        vertx,
                        client,
                        settings.endpoint(declared.endpoint().name()),
                        config.model(),
                        limits,
                        redactor))
            .toList();
    CanvasMetrics meters = CanvasMetrics.of(vertx);
    providers.forEach(provider -> meters.providerKnown(provider.id()));
    return new HttpProviders(client, providers);
  }

  public List<ModelProvider> providers() {
    return providers;
  }

  public Future<Void> close() {
    return client.close();
  }
}
