package dev.canvasagent.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.ConfigLoader;
import dev.canvasagent.model.fake.FakeModel;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Model keys resolve to a ready provider, a known provider that lacks a setting, or nothing. */
@ExtendWith(VertxExtension.class)
class ModelRegistryTest {

  private static ModelRegistry.Resolution resolve(
      Vertx vertx, Map<String, String> environment, String model) {
    HttpProviders http = HttpProviders.create(vertx, ConfigLoader.load(environment));
    List<ModelProvider> all = new ArrayList<>(List.of(new FakeModel(vertx, FakeScenarios.load())));
    all.addAll(http.providers());
    List<String> known = new ArrayList<>(List.of(FakeModel.MODEL));
    known.addAll(HttpProviders.KEYS);
    try {
      return new ModelRegistry(all, known).resolve(model);
    } finally {
      Await.result(http.close());
    }
  }

  @Test
  void eachProviderIsReadyOnceItsKeyIsSet(Vertx vertx) {
    Map<String, String> keys =
        Map.of("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o", "GEMINI_API_KEY", "g");
    for (String model :
        List.of(
            "anthropic:claude-sonnet-4-5",
            "openai:gpt-4.1",
            "openai-responses:gpt-4.1",
            "google:gemini-2.5-flash",
            "debug/fake")) {
      ModelRegistry.Ready ready =
          assertInstanceOf(ModelRegistry.Ready.class, resolve(vertx, keys, model), model);
      assertTrue(ready.provider().serves(model));
    }
  }

  @Test
  void aProviderWithoutItsKeyIsKnownButNotConfiguredAndSaysWhichVariableToSet(Vertx vertx) {
    Map<String, String> expected =
        Map.of(
            "anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY",
            "openai:gpt-4.1", "OPENAI_API_KEY",
            "openai-responses:gpt-4.1", "OPENAI_API_KEY",
            "google:gemini-2.5-flash", "GEMINI_API_KEY",
            "openai-compatible:llama3.1:8b", "OPENAI_COMPATIBLE_BASE_URL");
    expected.forEach(
        (model, variable) -> {
          ModelRegistry.NotConfigured missing =
              assertInstanceOf(
                  ModelRegistry.NotConfigured.class, resolve(vertx, Map.of(), model), model);
          assertEquals(variable, missing.setting());
          assertTrue(
              missing.message().contains(variable) && missing.message().contains(model),
              missing.message());
        });
  }

  @Test
  void anEmptiedBaseUrlIsTheMissingSetting(Vertx vertx) {
    ModelRegistry.NotConfigured missing =
        assertInstanceOf(
            ModelRegistry.NotConfigured.class,
            resolve(
                vertx,
                Map.of("ANTHROPIC_API_KEY", "a", "ANTHROPIC_BASE_URL", ""),
                "anthropic:claude"));
    assertEquals("ANTHROPIC_BASE_URL", missing.setting());
  }

  @Test
  void anOpenAiCompatibleServerNeedsOnlyItsBaseUrl(Vertx vertx) {
    assertInstanceOf(
        ModelRegistry.Ready.class,
        resolve(
            vertx,
            Map.of("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:11434/v1"),
            "openai-compatible:llama3.1:8b"));
  }

  @Test
  void anEmptyModelNameOrAnUnknownProviderIsUnknown(Vertx vertx) {
    Map<String, String> keys = Map.of("ANTHROPIC_API_KEY", "a");
    for (String model :
        List.of(
            "anthropic:", "anthropic:  ", "anthropic", "mystery:model", "claude-sonnet-4-5", "")) {
      ModelRegistry.Unknown unknown =
          assertInstanceOf(ModelRegistry.Unknown.class, resolve(vertx, keys, model), model);
      assertTrue(unknown.message().contains("anthropic:<model>"), unknown.message());
    }
  }
}
