package dev.canvasagent.config;

import static dev.canvasagent.config.Check.apiKey;
import static dev.canvasagent.config.Check.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.http.HttpProvider;
import dev.canvasagent.model.http.Limits;
import dev.canvasagent.model.openai.ChatCompletionsProtocol;
import dev.canvasagent.model.openai.ChatCompletionsStreamNormalizer;
import dev.canvasagent.security.CredentialRedactor;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.StubProvider;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.json.JsonArray;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The worked examples of docs/extending.md, "Add a setting" and "Add a model provider", run: a
 * throw-away setting and a throw-away provider, declared as the guide says, are read from the
 * environment, are refused without showing a secret, and are rows the documentation check asks for.
 */
@ExtendWith(VertxExtension.class)
class ExtendingExamplesTest {

  // "Add a setting": one declaration, default included, in its section's class (here
  // BridgeSettings).

  static final Setting WIDGETS_PER_ROOM =
      Setting.of(
          "bridge.widgetsPerRoom",
          "CANVAS_AGENT_WIDGETS_PER_ROOM",
          whole(1, 100),
          10,
          "Widgets one room may hold (1–100).");
  static final Setting WIDGET_TOKEN =
      Setting.secret(
          "bridge.widgetToken",
          "CANVAS_AGENT_WIDGET_TOKEN",
          apiKey(),
          "",
          "Token of the widget service. Secret.");
  static final List<Setting> WIDGETS = List.of(WIDGETS_PER_ROOM, WIDGET_TOKEN);

  static ConfigValues widgets(Map<String, String> environment) {
    return ConfigValues.load(WIDGETS, environment);
  }

  @Test
  void aNewSettingTakesItsDefaultAndItsEnvironmentVariable() {
    assertEquals(10, widgets(Map.of()).whole(WIDGETS_PER_ROOM));
    assertEquals(
        12, widgets(Map.of("CANVAS_AGENT_WIDGETS_PER_ROOM", "12")).whole(WIDGETS_PER_ROOM));
    assertEquals(
        25,
        widgets(Map.of(ConfigLoader.BLOB_VARIABLE, "{\"bridge\":{\"widgetsPerRoom\":25}}"))
            .whole(WIDGETS_PER_ROOM));
  }

  @Test
  void aNewSettingsDefaultIsCheckedWhenItIsDeclared() {
    assertEquals("", widgets(Map.of()).text(WIDGET_TOKEN));
    String refused =
        assertThrows(
                ConfigException.class,
                () ->
                    Setting.of(
                        "bridge.widgetsPerRoom",
                        "CANVAS_AGENT_WIDGETS_PER_ROOM",
                        whole(1, 100),
                        101,
                        "Widgets one room may hold (1–100)."))
            .getMessage();
    assertEquals(
        "bad configuration: default bridge.widgetsPerRoom = 101: must be between 1 and 100",
        refused);
  }

  @Test
  void aNewSettingIsCheckedAndASecretOneIsNotShown() {
    ConfigValues outOfRange = widgets(Map.of("CANVAS_AGENT_WIDGETS_PER_ROOM", "101"));
    String range =
        assertThrows(ConfigException.class, () -> outOfRange.whole(WIDGETS_PER_ROOM)).getMessage();
    assertEquals(
        "bad configuration: CANVAS_AGENT_WIDGETS_PER_ROOM = '101': must be between 1 and 100",
        range);

    ConfigValues spaced = widgets(Map.of("CANVAS_AGENT_WIDGET_TOKEN", "tok hunter2"));
    String secret =
        assertThrows(ConfigException.class, () -> spaced.text(WIDGET_TOKEN)).getMessage();
    assertEquals(
        "bad configuration: CANVAS_AGENT_WIDGET_TOKEN = '<redacted>': must be printable ASCII without spaces",
        secret);
  }

  @Test
  void aNewSettingIsARowTheDocumentationCheckAsksFor() {
    List<ConfigurationTable.Row> declared = ConfigurationTable.rows(WIDGETS);
    String table =
        ConfigurationTable.HEADER
            + "\n| --- | --- | --- | --- |\n"
            + "| `CANVAS_AGENT_WIDGETS_PER_ROOM` | `bridge.widgetsPerRoom` | `8` | Widgets one room may hold. |\n";

    List<String> differences =
        ConfigurationTableCheck.differences(
            ConfigurationTableCheck.documentedRows(table), declared);

    assertEquals(
        List.of(
            "`CANVAS_AGENT_WIDGETS_PER_ROOM` `bridge.widgetsPerRoom`: the table's default is `8`, the declaration's `10`",
            "missing from the table: | `CANVAS_AGENT_WIDGET_TOKEN` | `bridge.widgetToken` | empty | Token of the widget service. Secret. |"),
        differences);
  }

  // "Add a model provider": its endpoint, default base URL included, in config/ProviderEndpoints,
  // the provider in model/ProviderCatalog; here it speaks Chat Completions, so it needs no protocol
  // or normalizer of its own.

  static final ProviderEndpoint ACME =
      new ProviderEndpoint(
          "acme",
          "ACME",
          true,
          "https://api.acme.example/v1",
          "Key for `acme:<model>`, Chat Completions (`Authorization: Bearer`). Secret.",
          "With `/v1` (`/chat/completions` is appended).");
  static final HttpProvider ACME_CHAT =
      new HttpProvider(
          "acme",
          ACME,
          (endpoint, model) ->
              ChatCompletionsProtocol.openai(endpoint.baseUrl(), endpoint.apiKey()),
          ChatCompletionsStreamNormalizer::new);

  static ConfigValues acme(Map<String, String> environment) {
    return ConfigValues.load(ACME.settings(), environment);
  }

  @Test
  void aNewProvidersEndpointIsReadFromItsVariablesAndSaysWhatIsMissing() {
    AppConfig.Endpoint unset = ACME.read(acme(Map.of()));
    assertEquals(new AppConfig.Endpoint("https://api.acme.example/v1", ""), unset);
    assertEquals(Optional.of("ACME_API_KEY"), ACME.missing(unset));

    AppConfig.Endpoint set =
        ACME.read(
            acme(Map.of("ACME_API_KEY", "sk-acme-1", "ACME_BASE_URL", "http://127.0.0.1:9/v1/")));
    assertEquals(new AppConfig.Endpoint("http://127.0.0.1:9/v1", "sk-acme-1"), set);
    assertEquals(Optional.empty(), ACME.missing(set));
  }

  @Test
  void aNewProvidersKeyAndCredentialsInItsBaseUrlAreNotShown() {
    String key =
        assertThrows(
                ConfigException.class,
                () -> ACME.read(acme(Map.of("ACME_API_KEY", "sk acme hunter2"))))
            .getMessage();
    String url =
        assertThrows(
                ConfigException.class,
                () ->
                    ACME.read(
                        acme(Map.of("ACME_BASE_URL", "https://me:hunter2@api.acme.example/v1"))))
            .getMessage();

    assertEquals(
        "bad configuration: ACME_API_KEY = '<redacted>': must be printable ASCII without spaces",
        key);
    assertTrue(
        url.startsWith(
            "bad configuration: ACME_BASE_URL = 'https://<redacted>@api.acme.example/v1'"),
        url);
    assertFalse(url.contains("hunter2"), url);
  }

  @Test
  void aNewProvidersVariablesAreRowsTheDocumentationCheckAsksFor() {
    List<String> missing =
        ConfigurationTableCheck.differences(List.of(), ConfigurationTable.rows(ACME.settings()));

    assertEquals(
        List.of(
            "missing from the table: | `ACME_API_KEY` | `providers.acme.apiKey` | empty | Key for `acme:<model>`, Chat Completions (`Authorization: Bearer`). Secret. |",
            "missing from the table: | `ACME_BASE_URL` | `providers.acme.baseUrl` | `https://api.acme.example/v1` | With `/v1` (`/chat/completions` is appended). |"),
        missing);
  }

  @Test
  void aNewProviderServesItsKeysAndStreamsThroughItsNormalizer(Vertx vertx) throws IOException {
    StubProvider stub =
        Await.result(StubProvider.start(vertx))
            .then(StubProvider.Stream.whole(fixture("openai-answer.sse")));
    HttpClientAgent client = vertx.createHttpClient();
    try {
      AppConfig.Model model = ConfigLoader.load(Map.of()).model();
      ModelProvider acme =
          ACME_CHAT.connect(
              vertx,
              client,
              new AppConfig.Endpoint(stub.baseUrl() + "/v1", "sk-acme-stub"),
              model,
              new Limits(0, 1_000, 10_000),
              CredentialRedactor.patternsOnly());

      assertTrue(acme.serves("acme:widget-large"));
      assertFalse(acme.serves("acme:"));
      List<ModelEvent> events = Await.result(stream(vertx, acme, "acme:widget-large"));

      assertInstanceOf(ModelEvent.Stop.class, events.get(events.size() - 1), events.toString());
      assertEquals("/v1/chat/completions", stub.received().get(0).uri());
      assertEquals("widget-large", stub.received().get(0).body().getString("model"));
      assertEquals("Bearer sk-acme-stub", stub.received().get(0).headers().get("authorization"));
    } finally {
      Await.result(client.close());
      Await.result(stub.close());
    }
  }

  private static Future<List<ModelEvent>> stream(
      Vertx vertx, ModelProvider provider, String model) {
    Promise<List<ModelEvent>> done = Promise.promise();
    ModelRequest request =
        new ModelRequest(model, "You draw on a whiteboard.", "draw a box", new JsonArray());
    vertx
        .getOrCreateContext()
        .runOnContext(
            go -> {
              List<ModelEvent> events = new ArrayList<>();
              provider.stream(
                  request,
                  event -> {
                    events.add(event);
                    if (event instanceof ModelEvent.Stop || event instanceof ModelEvent.Error) {
                      done.tryComplete(events);
                    }
                  });
            });
    return done.future();
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in =
        ExtendingExamplesTest.class.getResourceAsStream("/providers/http/" + name)) {
      return in.readAllBytes();
    }
  }
}
