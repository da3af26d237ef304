package dev.canvasagent.model.fake;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The scripted answers of {@code debug/fake}, from {@code conf/fake-model.json}. A scripted scenario
 * plays when its {@code match} pattern is found in the user's message (the first one wins); a
 * {@code fallback} scenario plays only when no scripted scenario matches and the planner does not
 * take the message either.
 *
 * @param chunkDelayMs the pause between stream events, unless the configuration overrides it
 * @param chunkChars the size of each text and argument fragment
 */
public record FakeScenarios(int chunkDelayMs, int chunkChars, List<Scenario> scenarios) {
  static final String RESOURCE = "conf/fake-model.json";

  public FakeScenarios {
    if (chunkDelayMs < 0 || chunkChars < 1) {
      throw new IllegalArgumentException(
          RESOURCE + ": chunkDelayMs must be at least 0 and chunkChars at least 1");
    }
    scenarios = List.copyOf(scenarios);
    if (scenarios.stream().noneMatch(Scenario::fallback)) {
      throw new IllegalArgumentException(RESOURCE + " needs a scenario with \"fallback\": true");
    }
  }

  /**
   * One scripted answer: optional text, then tool calls (name and arguments), or a terminal error.
   * String arguments may contain {@code ${message}}, replaced by the start of the user's message.
   *
   * @param help how a person triggers it, for the fake's help text; empty to leave it out
   */
  public record Scenario(
      String name,
      Pattern match,
      boolean fallback,
      String help,
      String text,
      List<JsonObject> calls,
      JsonObject error) {

    /** The answer for a message whose first characters are {@code excerpt}. */
    public FakeAnswer answer(String excerpt) {
      List<FakeAnswer.ToolCall> toolCalls =
          calls.stream()
              .map(
                  call ->
                      new FakeAnswer.ToolCall(
                          call.getString("name"),
                          (JsonObject)
                              substitute(
                                  call.getJsonObject("arguments", new JsonObject()), excerpt)))
              .toList();
      return new FakeAnswer(text, toolCalls, error);
    }

    private static Object substitute(Object value, String excerpt) {
      if (value instanceof String text) {
        return text.replace("${message}", excerpt);
      }
      if (value instanceof JsonObject object) {
        JsonObject copy = new JsonObject();
        object.forEach(entry -> copy.put(entry.getKey(), substitute(entry.getValue(), excerpt)));
        return copy;
      }
      if (value instanceof JsonArray array) {
        JsonArray copy = new JsonArray();
        array.forEach(item -> copy.add(substitute(item, excerpt)));
        return copy;
      }
      return value;
    }
  }

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
            .map(
                scenario ->
                    new Scenario(
                        scenario.getString("name"),
                        Pattern.compile(
                            scenario.getString("match", ".*"), Pattern.CASE_INSENSITIVE),
                        scenario.getBoolean("fallback", false),
                        scenario.getString("help", ""),
                        scenario.getString("text", ""),
                        scenario.getJsonArray("calls", new JsonArray()).stream()
                            .map(JsonObject.class::cast)
                            .toList(),
                        scenario.getJsonObject("error")))
            .toList();
    return new FakeScenarios(
        json.getInteger("chunkDelayMs", 10), json.getInteger("chunkChars", 24), scenarios);
  }

  /** The same scenarios paced at another delay. */
  public FakeScenarios withChunkDelayMs(int delayMs) {
    return new FakeScenarios(delayMs, chunkChars, scenarios);
  }

  /** The first scripted (not fallback) scenario whose pattern is found in the message. */
  public Optional<Scenario> scripted(String message) {
    return scenarios.stream()
        .filter(scenario -> !scenario.fallback() && scenario.match().matcher(message).find())
        .findFirst();
  }

  /** The first fallback scenario whose pattern is found in the message (its pattern is usually {@code .*}). */
  public Scenario fallback(String message) {
    return scenarios.stream()
        .filter(scenario -> scenario.fallback() && scenario.match().matcher(message).find())
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no fallback scenario matches; give one in "
                        + RESOURCE
                        + " \"match\": \".*\""));
  }

  /** The {@code help} lines of the scenarios that have one, in file order. */
  public List<String> helpLines() {
    return scenarios.stream().map(Scenario::help).filter(help -> !help.isBlank()).toList();
  }
}
