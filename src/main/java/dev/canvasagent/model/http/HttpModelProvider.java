package dev.canvasagent.model.http;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.security.CredentialRedactor;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A provider reached over HTTP: serves the keys {@code <id>:<model>} with a non-blank model name,
 * and streams each call through a {@link StreamingCall}: the request {@code protocol} writes, its
 * answer read by a fresh normalizer of {@code normalizers}. {@code missingSetting} names the
 * environment variable still unset (API key or base URL), if any: the provider is then known but
 * refuses to be called. {@code redactor} takes the configured secrets out of a provider's error text
 * before it is logged.
 */
public final class HttpModelProvider implements ModelProvider {
  private final Vertx vertx;
  private final HttpClient client;
  private final String id;
  private final ProviderProtocol protocol;
  private final Function<Consumer<ModelEvent>, StreamNormalizer> normalizers;
  private final Limits limits;
  private final Optional<String> missingSetting;
  private final CredentialRedactor redactor;

  public HttpModelProvider(
      Vertx vertx,
      HttpClient client,
      String id,
      ProviderProtocol protocol,
      Function<Consumer<ModelEvent>, StreamNormalizer> normalizers,
      Limits limits,
      Optional<String> missingSetting,
      CredentialRedactor redactor) {
    this.vertx = vertx;
    this.client = client;
    this.id = id;
    this.protocol = protocol;
    this.normalizers = normalizers;
    this.limits = limits;
    this.missingSetting = missingSetting;
    this.redactor = redactor;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public boolean serves(String model) {
    String prefix = id + ":";
    return model != null && model.startsWith(prefix) && !model.substring(prefix.length()).isBlank();
  }

  @Override
  public Optional<String> missingSetting() {
    return missingSetting;
  }

  @Override
  public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    if (missingSetting.isPresent() || !serves(request.model())) {
      throw new IllegalStateException(
          "provider "
              + id()
              + " cannot serve "
              + request.model()
              + missingSetting.map(setting -> " (" + setting + " is not set)").orElse(""));
    }
    String model = request.model().substring(id.length() + 1).strip();
    StreamingCall call =
        new StreamingCall(
            vertx,
            client,
            id,
            model,
            protocol.request(model, request),
            normalizers,
            events,
            limits,
            redactor);
    call.start();
    return call;
  }
}
