package dev.canvasagent.model.openai;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.OpenToolCall;
import dev.canvasagent.model.ProviderErrors;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.model.sse.SseDecoder;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns an OpenAI Chat Completions stream (and the OpenAI-compatible streams of Ollama, llama.cpp
 * and vLLM) into {@link ModelEvent}s.
 *
 * <p>Calls are keyed by {@code tool_calls[].index} through a map, with the id deciding when a server
 * reuses an index for a new call (Ollama) and "last open call" when the index is missing. Argument
 * fragments from every delta, the header delta included, are accumulated as text and parsed once
 * when the chunk carrying {@code finish_reason} has been applied. Reasoning fields
 * ({@code reasoning}, {@code reasoning_content}) are never text. Usage, last value wins, is emitted
 * right before {@link ModelEvent.Stop}, which waits for {@code [DONE]} or end of input because the
 * usage chunk follows the finish chunk. In-band {@code {"error":…}} payloads are terminal; anything
 * after a terminal event, a trailing {@code [DONE]} included, is ignored.
 */
public final class ChatCompletionsStreamNormalizer implements StreamNormalizer {

  private final Consumer<ModelEvent> sink;
  private final List<OpenToolCall> calls = new ArrayList<>();
  private final Map<Integer, OpenToolCall> callsByIndex = new HashMap<>();
  private final Map<String, OpenToolCall> callsById = new HashMap<>();
  private OpenToolCall lastCall;
  private String finishReason;
  private long inputTokens = -1;
  private long outputTokens = -1;
  private boolean finished;

  public ChatCompletionsStreamNormalizer(Consumer<ModelEvent> sink) {
    this.sink = sink;
  }

  /** One SSE event of the response body. */
  @Override
  public void accept(SseDecoder.Event event) {
    if (finished) {
      return;
    }
    String data = event.data().strip();
    if (data.equals("[DONE]")) {
      stop();
      return;
    }
    JsonObject chunk;
    try {
      chunk = new JsonObject(data);
    } catch (DecodeException | ClassCastException e) {
      fail(
          new ModelEvent.Error(
              "invalid_response", "chunk is not a JSON object: " + e.getMessage(), false));
      return;
    }
    if (chunk.containsKey("error")) {
      failInBand(chunk.getValue("error"));
      return;
    }
    readUsage(chunk.getValue("usage"));
    if (chunk.getValue("choices") instanceof JsonArray choices) {
      for (Object item : choices) {
        if (item instanceof JsonObject choice && !finished) {
          applyChoice(choice);
        }
      }
    }
  }

  /** End of input: successful only if a {@code finish_reason} was seen. */
  @Override
  public void end() {
    if (finished) {
      return;
    }
    if (finishReason != null) {
      stop();
    } else {
      fail(ProviderErrors.truncated());
    }
  }

  private void applyChoice(JsonObject choice) {
    if (choice.getValue("delta") instanceof JsonObject delta) {
      if (delta.getValue("content") instanceof String text && !text.isEmpty()) {
        sink.accept(new ModelEvent.TextDelta(text));
      }
      if (delta.getValue("tool_calls") instanceof JsonArray toolCalls && finishReason == null) {
        for (Object item : toolCalls) {
          if (item instanceof JsonObject toolCall) {
            applyToolCall(toolCall);
          }
        }
      }
    }
    if (choice.getValue("finish_reason") instanceof String reason && finishReason == null) {
      finishReason = reason;
      endOpenCalls();
    }
  }

  private void applyToolCall(JsonObject toolCall) {
    Integer index = toolCall.getValue("index") instanceof Number n ? n.intValue() : null;
    String id = toolCall.getValue("id") instanceof String s && !s.isEmpty() ? s : null;
    JsonObject function =
        toolCall.getValue("function") instanceof JsonObject f ? f : new JsonObject();
    String name = function.getValue("name") instanceof String s && !s.isEmpty() ? s : null;
    String fragment = function.getValue("arguments") instanceof String s ? s : "";

    OpenToolCall call = correlate(index, id);
    if (call == null) {
      return;
    }
    if (call.callId() == null && id != null) {
      callsById.put(id, call);
    }
    call.identify(id, name);
    call.append(fragment);
  }

  /** Finds the call a tool delta belongs to, opening a new one when the delta starts a call. */
  private OpenToolCall correlate(Integer index, String id) {
    if (id != null && callsById.containsKey(id)) {
      return callsById.get(id);
    }
    OpenToolCall byIndex = index != null ? callsByIndex.get(index) : lastCall;
    boolean sameCall =
        byIndex != null && !byIndex.ended() && (id == null || byIndex.callId() == null);
    if (sameCall) {
      return byIndex;
    }
    if (id == null && index == null) {
      return null;
    }
    OpenToolCall call = new OpenToolCall(calls.size(), sink);
    calls.add(call);
    if (index != null) {
      callsByIndex.put(index, call);
    }
    lastCall = call;
    return call;
  }

  private void endOpenCalls() {
    for (OpenToolCall call : calls) {
      // a call whose id never came is given one, so it can still be answered
      ModelEvent.Error invalid = call.end(null);
      if (invalid != null) {
        fail(invalid);
        return;
      }
    }
  }

  private void readUsage(Object value) {
    if (value instanceof JsonObject usage) {
      if (usage.getValue("prompt_tokens") instanceof Number n) {
        inputTokens = n.longValue();
      }
      if (usage.getValue("completion_tokens") instanceof Number n) {
        outputTokens = n.longValue();
      }
    }
  }

  private void stop() {
    endOpenCalls();
    if (finished) {
      return;
    }
    finished = true;
    if (inputTokens >= 0 || outputTokens >= 0) {
      sink.accept(new ModelEvent.Usage(Math.max(inputTokens, 0), Math.max(outputTokens, 0)));
    }
    sink.accept(new ModelEvent.Stop(mapStopReason(finishReason)));
  }

  private String mapStopReason(String raw) {
    boolean anyCompleted = calls.stream().anyMatch(OpenToolCall::ended);
    String mapped =
        raw == null
            ? "end_turn"
            : switch (raw) {
              case "stop" -> "end_turn";
              case "length" -> "max_tokens";
              case "tool_calls", "function_call" -> "tool_calls";
              case "content_filter" -> "content_filter";
              default -> "other";
            };
    return mapped.equals("end_turn") && anyCompleted ? "tool_calls" : mapped;
  }

  private void failInBand(Object error) {
    if (error instanceof JsonObject body) {
      String type = body.getValue("type") instanceof String t ? t : null;
      if (type == null && body.getValue("status") instanceof String status) {
        type = status;
      }
      Object code = body.getValue("code");
      if (type == null) {
        type = code != null ? String.valueOf(code) : "api_error";
      }
      String message = body.getValue("message") instanceof String m ? m : body.encode();
      fail(ProviderErrors.inBand(type, message, code));
    } else {
      fail(ProviderErrors.inBand("api_error", String.valueOf(error), null));
    }
  }

  private void fail(ModelEvent.Error error) {
    finished = true;
    sink.accept(error);
  }
}
