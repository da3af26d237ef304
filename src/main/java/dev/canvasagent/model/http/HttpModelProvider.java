package dev.canvasagent.model.http;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.security.CredentialRedactor;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A provider reached over HTTP: serves the keys {@code <id>:<model>} with a non-blank model name,
 * and streams each call through a {@link StreamingCall}. {@code missingSetting} names the
 * environment variable still unset (API key or base URL), if any: the provider is then known but
 * refuses to be called. {@code redactor} takes the configured secrets out of a provider's error text
 * before it is logged.
 */
public final class HttpModelProvider implements ModelProvider {
  private final Vertx vertx;
  private final HttpClient client;
  private final ProviderProtocol protocol;
  private final Limits limits;
  private final Optional<String> missingSetting;
  private final CredentialRedactor redactor;

  public HttpModelProvider(Vertx vertx, HttpClient client, ProviderProtocol protocol, Limits limits,
      Optional<String> missingSetting, CredentialRedactor redactor) {
    this.vertx = vertx;
    this.client = client;
    this.protocol = protocol;
    this.limits = limits;
    this.missingSetting = missingSetting;
    this.redactor = redactor;
  }

  @Override
  public String id() {
    return protocol.id();
  }

  @Override
  public boolean serves(String model) {
    String prefix = protocol.id() + ":";
    return model != null && model.startsWith(prefix) && !model.substring(prefix.length()).isBlank();
  }

  @Override
  public Optional<String> missingSetting() {
    return missingSetting;
  }

  @Override
  public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    if (missingSetting.isPresent() || !serves(request.model())) {
      throw new IllegalStateException("provider " + id() + " cannot serve " + request.model()
          + missingSetting.map(setting -> " (" + setting + " is not set)").orElse(""));
    }
    String model = request.model().substring(protocol.id().length() + 1).strip();
    StreamingCall call = new StreamingCall(vertx, client, protocol.id(), model, protocol.request(model, request),
        protocol::normalizer, events, limits, redactor);
    call.start();
    return call;
  }
}
