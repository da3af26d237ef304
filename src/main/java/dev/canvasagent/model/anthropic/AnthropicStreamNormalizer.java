package dev.canvasagent.model.anthropic;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.OpenToolCall;
import dev.canvasagent.model.ProviderErrors;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.model.sse.SseDecoder;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns the server-sent events of an Anthropic Messages stream into {@link ModelEvent}s.
 *
 * <p>Tool calls are keyed by content-block index; argument fragments are accumulated as text and
 * parsed once at {@code content_block_stop} (empty text is {@code {}}). Usage is taken from {@code
 * message_start} and then from the cumulative {@code message_delta.usage}. The stream succeeds only
 * at {@code message_stop}; an {@code error} event, or the end of input before {@code message_stop}
 * ({@code stream_truncated}), ends it with an {@link ModelEvent.Error} instead. Calls still open at
 * that point are never ended. After the terminal event everything is ignored.
 */
public final class AnthropicStreamNormalizer implements StreamNormalizer {

  private final Consumer<ModelEvent> sink;
  private final Map<Integer, OpenToolCall> openCalls = new HashMap<>();
  private int nextOrdinal;
  private int completedCalls;
  private long inputTokens;
  private long outputTokens;
  private long cacheReadTokens;
  private long cacheWriteTokens;
  private String rawStopReason;
  private boolean finished;

  public AnthropicStreamNormalizer(Consumer<ModelEvent> sink) {
    this.sink = sink;
  }

  @Override
  public void accept(SseDecoder.Event event) {
    if (finished) {
      return;
    }
    JsonObject data;
    try {
      data = new JsonObject(event.data());
    } catch (DecodeException | ClassCastException e) {
      fail("invalid_event", "Unparseable event data: " + e.getMessage(), false);
      return;
    }
    String type = data.getString("type", event.event());
    switch (type) {
      case "message_start" ->
          readUsage(data.getJsonObject("message", new JsonObject()).getJsonObject("usage"));
      case "content_block_start" ->
          startBlock(data.getInteger("index", -1), data.getJsonObject("content_block"));
      case "content_block_delta" ->
          blockDelta(data.getInteger("index", -1), data.getJsonObject("delta"));
      case "content_block_stop" -> stopBlock(data.getInteger("index", -1));
      case "message_delta" -> {
        JsonObject delta = data.getJsonObject("delta");
        if (delta != null && delta.getString("stop_reason") != null) {
          rawStopReason = delta.getString("stop_reason");
        }
        readUsage(data.getJsonObject("usage"));
      }
      case "message_stop" -> {
        finished = true;
        sink.accept(
            new ModelEvent.Usage(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, 0));
        sink.accept(new ModelEvent.Stop(stopReason(), rawStopReason));
      }
      case "error" -> {
        JsonObject error = data.getJsonObject("error", new JsonObject());
        String errorType = error.getString("type", "error");
        fail(
            errorType,
            error.getString("message", errorType),
            ProviderErrors.isRetryable(errorType, null));
      }
      default -> {} // ping and event types added later
    }
  }

  /** End of input: anything short of {@code message_stop} is a retryable truncation. */
  @Override
  public void end() {
    if (!finished) {
      fail("stream_truncated", "The stream ended before message_stop", true);
    }
  }

  private void startBlock(int index, JsonObject block) {
    if (block == null) {
      return;
    }
    switch (block.getString("type", "")) {
      case "text" -> emitText(block.getString("text"));
      case "tool_use" -> {
        // block.input is always {} here and must not seed the argument text
        openCalls.put(
            index,
            OpenToolCall.started(
                nextOrdinal++, block.getString("id"), block.getString("name"), sink));
      }
      default -> {} // thinking, server_tool_use and result blocks are not client tool calls
    }
  }

  private void blockDelta(int index, JsonObject delta) {
    if (delta == null) {
      return;
    }
    switch (delta.getString("type", "")) {
      case "text_delta" -> emitText(delta.getString("text"));
      case "input_json_delta" -> {
        OpenToolCall call = openCalls.get(index);
        if (call != null) {
          call.append(delta.getString("partial_json", ""));
        }
      }
      default -> {} // thinking_delta, signature_delta, citations
    }
  }

  private void stopBlock(int index) {
    OpenToolCall call = openCalls.remove(index);
    if (call == null) {
      return;
    }
    ModelEvent.Error invalid = call.end(null);
    if (invalid != null) {
      fail(invalid.errorType(), invalid.message(), false);
      return;
    }
    completedCalls++;
  }

  private void emitText(String text) {
    if (text != null && !text.isEmpty()) {
      sink.accept(new ModelEvent.TextDelta(text));
    }
  }

  private void readUsage(JsonObject usage) {
    if (usage == null) {
      return;
    }
    inputTokens = usage.getLong("input_tokens", inputTokens);
    outputTokens = usage.getLong("output_tokens", outputTokens);
    cacheReadTokens = usage.getLong("cache_read_input_tokens", cacheReadTokens);
    cacheWriteTokens = usage.getLong("cache_creation_input_tokens", cacheWriteTokens);
  }

  private String stopReason() {
    if (rawStopReason == null) {
      return "other";
    }
    return switch (rawStopReason) {
      case "end_turn", "stop_sequence" -> completedCalls > 0 ? "tool_calls" : rawStopReason;
      case "tool_use" -> "tool_calls";
      case "max_tokens", "model_context_window_exceeded" -> "max_tokens";
      case "pause_turn", "refusal" -> rawStopReason;
      default -> "other";
    };
  }

  private void fail(String errorType, String message, boolean retryable) {
    finished = true;
    sink.accept(new ModelEvent.Error(errorType, message, retryable));
  }
}
