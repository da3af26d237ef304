package dev.canvasagent.model.fake;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The scripted answers of {@code debug/fake}, from {@code conf/fake-model.json}: the first scenario
 * whose {@code match} pattern is found in the user's message is streamed.
 */
public record FakeScenarios(int chunkDelayMs, int chunkChars, List<Scenario> scenarios) {
  static final String RESOURCE = "conf/fake-model.json";

  /**
   * One scripted answer: optional text, then tool calls (name and arguments), or a terminal error.
   * String arguments may contain {@code ${message}}, replaced by the start of the user's message.
   */
  public record Scenario(String name, Pattern match, String text, List<JsonObject> calls, JsonObject error) {}

  public static FakeScenarios load() {
    try (InputStream in = FakeScenarios.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath");
      }
      return fromJson(new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static FakeScenarios fromJson(JsonObject json) {
    List<Scenario> scenarios =
        json.getJsonArray("scenarios").stream()
            .map(JsonObject.class::cast)
            .map(scenario -> new Scenario(
                scenario.getString("name"),
                Pattern.compile(scenario.getString("match"), Pattern.CASE_INSENSITIVE),
                scenario.getString("text", ""),
                scenario.getJsonArray("calls", new JsonArray()).stream().map(JsonObject.class::cast).toList(),
                scenario.getJsonObject("error")))
            .toList();
    return new FakeScenarios(json.getInteger("chunkDelayMs", 10), json.getInteger("chunkChars", 24), scenarios);
  }

  public Scenario choose(String message) {
    return scenarios.stream()
        .filter(scenario -> scenario.match().matcher(message).find())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no fake scenario matches; add a catch-all to " + RESOURCE));
  }
}
