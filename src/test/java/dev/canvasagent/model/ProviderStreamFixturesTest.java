package dev.canvasagent.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.canvasagent.model.gemini.GeminiStreamNormalizer;
import dev.canvasagent.model.openai.ChatCompletionsStreamNormalizer;
import dev.canvasagent.model.sse.SseDecoder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every provider fixture (test resources {@code providers/*.sse}) through {@link SseDecoder}
 * and the provider's normalizer, whole, in 1-byte chunks and in random chunk sizes, and compares
 * the events with the fixture's {@code .expected.json} strictly ({@code $generated:N} ids are
 * matched structurally; reasoning deltas, provider indexes, raw stop reasons and error messages are
 * not compared; usage is compared on input and output tokens).
 */
class ProviderStreamFixturesTest {

  static Stream<Arguments> replays() {
    List<String> fixtures =
        List.of(
            "openai-chat-text-only",
            "openai-chat-parallel-tool-calls",
            "openai-chat-text-then-tool",
            "openai-chat-tool-index-starts-at-1",
            "openai-chat-error-midstream",
            "ollama-openai-compat-tool-call",
            "ollama-openai-compat-parallel-index-reuse",
            "ollama-openai-compat-reasoning-text",
            "ollama-openai-compat-truncated-no-done",
            "llamacpp-tool-call",
            "llamacpp-reasoning-parallel-tool-calls",
            "llamacpp-error-midstream",
            "vllm-tool-call-streamed",
            "vllm-parallel-tool-calls",
            "vllm-error-midstream",
            "vllm-named-tool-choice",
            "gemini-function-call",
            "gemini-text-only",
            "gemini-text-and-parallel-calls",
            "gemini-error-midstream",
            "gemini-function-call-no-args",
            "vertex-gemini-partial-args");
    return fixtures.stream()
        .filter(
            name ->
                ProviderStreamFixturesTest.class.getResource("/providers/" + name + ".sse") != null)
        .flatMap(
            name ->
                Stream.of(
                    Arguments.of(name, "whole", 0L),
                    Arguments.of(name, "1-byte", 0L),
                    Arguments.of(name, "random", 7L),
                    Arguments.of(name, "random", 42L),
                    Arguments.of(name, "random", 20260101L)));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("replays")
  void replayMatchesExpectedEvents(String fixture, String chunking, long seed) throws IOException {
    byte[] body = resource(fixture + ".sse");
    JsonObject expected =
        new JsonObject(new String(resource(fixture + ".expected.json"), StandardCharsets.UTF_8));

    List<ModelEvent> events = new ArrayList<>();
    Consumer<SseDecoder.Event> normalizer;
    Runnable end;
    if (fixture.startsWith("gemini-") || fixture.startsWith("vertex-gemini-")) {
      GeminiStreamNormalizer gemini = new GeminiStreamNormalizer(events::add);
      normalizer = gemini::accept;
      end = gemini::end;
    } else {
      ChatCompletionsStreamNormalizer chat = new ChatCompletionsStreamNormalizer(events::add);
      normalizer = chat::accept;
      end = chat::end;
    }
    SseDecoder decoder = new SseDecoder(normalizer);
    for (Buffer chunk : chunks(body, chunking, seed)) {
      decoder.feed(chunk);
    }
    decoder.end();
    end.run();

    assertEquals(
        expectedEvents(expected), actualEvents(events), fixture + " " + chunking + " " + seed);
  }

  private static List<Buffer> chunks(byte[] body, String chunking, long seed) {
    List<Buffer> chunks = new ArrayList<>();
    Random random = new Random(seed);
    int position = 0;
    while (position < body.length) {
      int size =
          switch (chunking) {
            case "whole" -> body.length;
            case "1-byte" -> 1;
            default -> 1 + random.nextInt(24);
          };
      int endAt = Math.min(body.length, position + size);
      byte[] slice = new byte[endAt - position];
      System.arraycopy(body, position, slice, 0, slice.length);
      chunks.add(Buffer.buffer(slice));
      position = endAt;
    }
    return chunks;
  }

  private static JsonArray expectedEvents(JsonObject expected) {
    JsonArray result = new JsonArray();
    Map<String, String> generated = new HashMap<>();
    for (Object item : expected.getJsonArray("events")) {
      JsonObject event = ((JsonObject) item).copy();
      String type = event.getString("type");
      switch (type) {
        case "reasoning_delta" -> {
          continue;
        }
        case "tool_call_start" -> event.remove("providerIndex");
        case "tool_call_delta" -> {
          if (!event.getBoolean("synthetic", false)) {
            event.remove("synthetic");
          }
        }
        case "stop" -> {
          event.remove("rawReason");
          event.put("usage", tokens(event.getJsonObject("usage")));
        }
        case "error" ->
            event =
                new JsonObject()
                    .put("type", "error")
                    .put("errorType", event.getString("errorType"))
                    .put("retryable", event.getBoolean("retryable"));
        default -> {}
      }
      if (event.getValue("callId") instanceof String id && id.startsWith("$generated:")) {
        event.put("callId", generated.computeIfAbsent(id, k -> "generated-" + generated.size()));
      }
      result.add(event);
    }
    return result;
  }

  /** Our events in the fixture's vocabulary; generated ids renamed in order of appearance. */
  private static JsonArray actualEvents(List<ModelEvent> events) {
    JsonArray result = new JsonArray();
    Map<String, String> generated = new HashMap<>();
    JsonObject usage = null;
    for (ModelEvent event : events) {
      if (event instanceof ModelEvent.TextDelta text) {
        result.add(new JsonObject().put("type", "text_delta").put("text", text.text()));
      } else if (event instanceof ModelEvent.ToolCallStart start) {
        result.add(
            new JsonObject()
                .put("type", "tool_call_start")
                .put("ordinal", start.ordinal())
                .put("callId", callId(start.callId(), generated))
                .put("name", start.name()));
      } else if (event instanceof ModelEvent.ToolCallDelta delta) {
        JsonObject json =
            new JsonObject()
                .put("type", "tool_call_delta")
                .put("ordinal", delta.ordinal())
                .put("callId", callId(delta.callId(), generated))
                .put("argumentsDelta", delta.argumentsDelta());
        if (delta.synthetic()) {
          json.put("synthetic", true);
        }
        result.add(json);
      } else if (event instanceof ModelEvent.ToolCallEnd end) {
        result.add(
            new JsonObject()
                .put("type", "tool_call_end")
                .put("ordinal", end.ordinal())
                .put("callId", callId(end.callId(), generated))
                .put("name", end.name())
                .put("arguments", end.arguments()));
      } else if (event instanceof ModelEvent.Usage tokens) {
        usage =
            new JsonObject()
                .put("inputTokens", tokens.inputTokens())
                .put("outputTokens", tokens.outputTokens());
      } else if (event instanceof ModelEvent.Stop stop) {
        result.add(
            new JsonObject()
                .put("type", "stop")
                .put("reason", stop.reason())
                .put("usage", usage != null ? usage : new JsonObject()));
      } else if (event instanceof ModelEvent.Error error) {
        result.add(
            new JsonObject()
                .put("type", "error")
                .put("errorType", error.errorType())
                .put("retryable", error.retryable()));
      }
    }
    return result;
  }

  private static String callId(String id, Map<String, String> generated) {
    return id.startsWith("gemini_")
        ? generated.computeIfAbsent(id, k -> "generated-" + generated.size())
        : id;
  }

  private static JsonObject tokens(JsonObject usage) {
    JsonObject result = new JsonObject();
    if (usage != null) {
      for (String field : List.of("inputTokens", "outputTokens")) {
        if (usage.getValue(field) instanceof Number n) {
          result.put(field, n.longValue());
        }
      }
    }
    return result;
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in =
        ProviderStreamFixturesTest.class.getResourceAsStream("/providers/" + name)) {
      assertNotNull(in, name);
      return in.readAllBytes();
    }
  }
}
