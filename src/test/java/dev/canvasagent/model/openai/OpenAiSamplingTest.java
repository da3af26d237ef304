package dev.canvasagent.model.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.canvasagent.model.ModelRequest;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reasoning models refuse a temperature; every other model gets the run's. */
class OpenAiSamplingTest {
  static final ModelRequest REQUEST =
      new ModelRequest("openai:any", "system", "draw", new JsonArray());

  @ParameterizedTest
  @ValueSource(strings = {"o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "GPT-5-mini"})
  void reasoningModelsAreSentNoTemperature(String model) {
    assertFalse(
        ChatCompletionsProtocol.openai("http://127.0.0.1:1/v1", "k")
            .request(model, REQUEST)
            .body()
            .containsKey("temperature"));
    assertFalse(
        new ResponsesProtocol("http://127.0.0.1:1/v1", "k")
            .request(model, REQUEST)
            .body()
            .containsKey("temperature"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"gpt-4.1", "gpt-4o-mini", "omni-moderation"})
  void otherModelsGetTheRunsTemperature(String model) {
    double expected = ModelRequest.Sampling.DEFAULT.temperature();
    assertEquals(
        expected,
        ChatCompletionsProtocol.openai("http://127.0.0.1:1/v1", "k")
            .request(model, REQUEST)
            .body()
            .getDouble("temperature"));
    assertEquals(
        expected,
        new ResponsesProtocol("http://127.0.0.1:1/v1", "k")
            .request(model, REQUEST)
            .body()
            .getDouble("temperature"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"gpt-5", "llama3.1:8b"})
  void aCompatibleServerAlwaysGetsTheTemperature(String model) {
    assertEquals(
        ModelRequest.Sampling.DEFAULT.temperature(),
        ChatCompletionsProtocol.compatible("http://127.0.0.1:1/v1", "")
            .request(model, REQUEST)
            .body()
            .getDouble("temperature"));
  }
}
