package dev.canvasagent.model.http;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ProviderEndpoint;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.security.CredentialRedactor;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One HTTP model provider, declared once: the key prefix runs name it by ({@code anthropic} serves
 * {@code anthropic:<model>}), the endpoint whose base URL and key it uses (its environment variables
 * and their meanings), how its request is written and how its answer's stream is read.
 */
public record HttpProvider(
    String id,
    ProviderEndpoint endpoint,
    ProtocolFactory protocol,
    Function<Consumer<ModelEvent>, StreamNormalizer> normalizer) {

  /** The provider's request writer for its configured endpoint. */
  @FunctionalInterface
  public interface ProtocolFactory {
    ProviderProtocol create(AppConfig.Endpoint endpoint, AppConfig.Model model);
  }

  /** The key form for error messages, e.g. {@code anthropic:<model>}. */
  public String keyForm() {
    return id + ":<model>";
  }

  /** This provider as runs call it, over {@code client}; known but refusing calls while its endpoint lacks a setting. */
  public HttpModelProvider connect(
      Vertx vertx,
      HttpClient client,
      AppConfig.Endpoint configured,
      AppConfig.Model model,
      Limits limits,
      CredentialRedactor redactor) {
    return new HttpModelProvider(
        vertx,
        client,
        id,
        protocol.create(configured, model),
        normalizer,
        limits,
        endpoint.missing(configured),
        redactor);
  }
}
