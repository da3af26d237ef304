package dev.canvasagent.model.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.anthropic.AnthropicStreamNormalizer;
import dev.canvasagent.model.openai.ResponsesStreamNormalizer;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every provider fixture in {@code src/test/resources/providers}, replayed byte for byte in 1-byte
 * chunks and in random chunk sizes (fixed seed), normalizes to exactly the event list of its {@code
 * .expected.json}: optional reasoning events and informational fields ({@code providerIndex},
 * {@code requestId}, error messages, {@code totalTokens}) aside.
 */
class ProviderFixtureReplayTest {

  private static final Set<String> USAGE_FIELDS =
      Set.of(
          "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", "reasoningTokens");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "anthropic-tool-use",
        "anthropic-text-and-two-tools",
        "anthropic-error-overloaded",
        "anthropic-tool-no-args",
        "anthropic-max-tokens-truncated-tool",
        "anthropic-thinking-then-tool"
      })
  void anthropicFixturesNormalizeToTheExpectedEvents(String fixture) {
    check(
        fixture,
        sink -> {
          AnthropicStreamNormalizer normalizer = new AnthropicStreamNormalizer(sink);
          return new Pipeline(normalizer::accept, normalizer::end);
        });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "openai-responses-function-call",
        "openai-responses-text-and-parallel-calls",
        "openai-responses-error",
        "openai-responses-reasoning-then-call",
        "openai-responses-incomplete-max-tokens"
      })
  void responsesFixturesNormalizeToTheExpectedEvents(String fixture) {
    check(
        fixture,
        sink -> {
          ResponsesStreamNormalizer normalizer = new ResponsesStreamNormalizer(sink);
          return new Pipeline(normalizer::accept, normalizer::end);
        });
  }

  @ParameterizedTest
  @ValueSource(strings = {"anthropic-tool-use", "openai-responses-function-call"})
  void aStreamCutBeforeItsTerminalEventIsARetryableTruncation(String fixture) {
    byte[] body = resource(fixture + ".sse");
    int cut = new String(body, StandardCharsets.ISO_8859_1).lastIndexOf("event: "); // a byte offset
    byte[] truncated = java.util.Arrays.copyOf(body, cut);
    Function<Consumer<ModelEvent>, Pipeline> factory =
        fixture.startsWith("anthropic")
            ? sink -> {
              AnthropicStreamNormalizer n = new AnthropicStreamNormalizer(sink);
              return new Pipeline(n::accept, n::end);
            }
            : sink -> {
              ResponsesStreamNormalizer n = new ResponsesStreamNormalizer(sink);
              return new Pipeline(n::accept, n::end);
            };
    List<ModelEvent> events = replay(truncated, factory, new Random(7), 16);
    ModelEvent last = events.get(events.size() - 1);
    assertEquals(
        new ModelEvent.Error("stream_truncated", ((ModelEvent.Error) last).message(), true), last);
    assertEquals(
        1,
        events.stream()
            .filter(e -> e instanceof ModelEvent.Error || e instanceof ModelEvent.Stop)
            .count());
  }

  private record Pipeline(Consumer<SseDecoder.Event> accept, Runnable end) {}

  private static void check(String fixture, Function<Consumer<ModelEvent>, Pipeline> factory) {
    byte[] body = resource(fixture + ".sse");
    JsonArray expected =
        comparable(
            new JsonObject(new String(resource(fixture + ".expected.json"), StandardCharsets.UTF_8))
                .getJsonArray("events"));
    assertEquals(
        expected, actual(replay(body, factory, null, 1), expected), fixture + " in 1-byte chunks");
    Random random = new Random(20261122L);
    for (int round = 0; round < 20; round++) {
      assertEquals(
          expected,
          actual(replay(body, factory, random, 97), expected),
          fixture + " in random chunks, round " + round);
    }
  }

  private static List<ModelEvent> replay(
      byte[] body, Function<Consumer<ModelEvent>, Pipeline> factory, Random random, int maxChunk) {
    List<ModelEvent> events = new ArrayList<>();
    Pipeline pipeline = factory.apply(events::add);
    SseDecoder decoder = new SseDecoder(pipeline.accept());
    for (int at = 0; at < body.length; ) {
      int size =
          Math.min(body.length - at, random == null ? maxChunk : 1 + random.nextInt(maxChunk));
      decoder.feed(Buffer.buffer().appendBytes(body, at, size));
      at += size;
    }
    decoder.end();
    pipeline.end().run();
    return events;
  }

  /** The expected events without the optional reasoning class and the informational fields. */
  private static JsonArray comparable(JsonArray events) {
    JsonArray out = new JsonArray();
    for (Object item : events) {
      JsonObject event = ((JsonObject) item).copy();
      switch (event.getString("type")) {
        case "reasoning_delta" -> {
          continue;
        }
        case "tool_call_start" -> event.remove("providerIndex");
        case "error" ->
            event =
                new JsonObject()
                    .put("type", "error")
                    .put("errorType", event.getString("errorType"))
                    .put("retryable", event.getBoolean("retryable"));
        case "stop" -> {
          JsonObject usage = new JsonObject();
          event
              .getJsonObject("usage", new JsonObject())
              .forEach(
                  field -> {
                    if (USAGE_FIELDS.contains(field.getKey())) {
                      usage.put(field.getKey(), ((Number) field.getValue()).longValue());
                    }
                  });
          event.put("usage", usage);
        }
        default -> {}
      }
      out.add(event);
    }
    return out;
  }

  /** The normalized events in the expected files' shape; a Usage event folds into the Stop after it. */
  private static JsonArray actual(List<ModelEvent> events, JsonArray expected) {
    JsonObject expectedUsage =
        expected.stream()
            .map(JsonObject.class::cast)
            .filter(e -> "stop".equals(e.getString("type")))
            .findFirst()
            .map(e -> e.getJsonObject("usage"))
            .orElse(new JsonObject());
    JsonArray out = new JsonArray();
    ModelEvent.Usage usage = null;
    for (ModelEvent event : events) {
      if (event instanceof ModelEvent.TextDelta text) {
        out.add(new JsonObject().put("type", "text_delta").put("text", text.text()));
      } else if (event instanceof ModelEvent.ToolCallStart start) {
        out.add(
            new JsonObject()
                .put("type", "tool_call_start")
                .put("ordinal", start.ordinal())
                .put("callId", start.callId())
                .put("name", start.name()));
      } else if (event instanceof ModelEvent.ToolCallDelta delta) {
        out.add(
            new JsonObject()
                .put("type", "tool_call_delta")
                .put("ordinal", delta.ordinal())
                .put("callId", delta.callId())
                .put("argumentsDelta", delta.argumentsDelta()));
      } else if (event instanceof ModelEvent.ToolCallEnd end) {
        out.add(
            new JsonObject()
                .put("type", "tool_call_end")
                .put("ordinal", end.ordinal())
                .put("callId", end.callId())
                .put("name", end.name())
                .put("arguments", end.arguments()));
      } else if (event instanceof ModelEvent.Usage u) {
        usage = u;
      } else if (event instanceof ModelEvent.Stop stop) {
        JsonObject all =
            usage == null
                ? new JsonObject()
                : new JsonObject()
                    .put("inputTokens", usage.inputTokens())
                    .put("outputTokens", usage.outputTokens())
                    .put("cacheReadTokens", usage.cacheReadTokens())
                    .put("cacheWriteTokens", usage.cacheWriteTokens())
                    .put("reasoningTokens", usage.reasoningTokens());
        JsonObject reported = new JsonObject();
        expectedUsage.fieldNames().forEach(field -> reported.put(field, all.getValue(field)));
        out.add(
            new JsonObject()
                .put("type", "stop")
                .put("reason", stop.reason())
                .put("rawReason", stop.rawReason())
                .put("usage", reported));
      } else if (event instanceof ModelEvent.Error error) {
        out.add(
            new JsonObject()
                .put("type", "error")
                .put("errorType", error.errorType())
                .put("retryable", error.retryable()));
      }
    }
    return out;
  }

  private static byte[] resource(String name) {
    try (InputStream in =
        ProviderFixtureReplayTest.class.getResourceAsStream("/providers/" + name)) {
      if (in == null) {
        throw new IllegalStateException("Missing test resource providers/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
