package dev.canvasagent.model.openai;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ProviderErrors;
import dev.canvasagent.model.ToolArguments;
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
public final class ChatCompletionsStreamNormalizer {

  private static final class Call {
    final int ordinal;
    String id;
    String name;
    final StringBuilder arguments = new StringBuilder();
    final List<String> pendingFragments = new ArrayList<>();
    boolean started;
    boolean ended;

    Call(int ordinal) {
      this.ordinal = ordinal;
    }
  }

  private final Consumer<ModelEvent> sink;
  private final List<Call> calls = new ArrayList<>();
  private final Map<Integer, Call> callsByIndex = new HashMap<>();
  private final Map<String, Call> callsById = new HashMap<>();
  private Call lastCall;
  private String finishReason;
  private long inputTokens = -1;
  private long outputTokens = -1;
  private boolean finished;

  public ChatCompletionsStreamNormalizer(Consumer<ModelEvent> sink) {
    this.sink = sink;
  }

  /** One SSE event of the response body. */
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
      fail(new ModelEvent.Error("invalid_response", "chunk is not a JSON object: " + e.getMessage(), false));
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
    JsonObject function = toolCall.getValue("function") instanceof JsonObject f ? f : new JsonObject();
    String name = function.getValue("name") instanceof String s && !s.isEmpty() ? s : null;
    String fragment = function.getValue("arguments") instanceof String s ? s : "";

    Call call = correlate(index, id);
    if (call == null) {
      return;
    }
    if (call.id == null && id != null) {
      call.id = id;
      callsById.put(id, call);
    }
    if (call.name == null && name != null) {
      call.name = name;
    }
    if (!call.started && call.id != null && call.name != null) {
      call.started = true;
      sink.accept(new ModelEvent.ToolCallStart(call.ordinal, call.id, call.name));
      for (String pending : call.pendingFragments) {
        sink.accept(new ModelEvent.ToolCallDelta(call.ordinal, call.id, pending));
      }
      call.pendingFragments.clear();
    }
    if (!fragment.isEmpty()) {
      call.arguments.append(fragment);
      if (call.started) {
        sink.accept(new ModelEvent.ToolCallDelta(call.ordinal, call.id, fragment));
      } else {
        call.pendingFragments.add(fragment);
      }
    }
  }

  /** Finds the call a tool delta belongs to, opening a new one when the delta starts a call. */
  private Call correlate(Integer index, String id) {
    if (id != null && callsById.containsKey(id)) {
      return callsById.get(id);
    }
    Call byIndex = index != null ? callsByIndex.get(index) : lastCall;
    boolean sameCall = byIndex != null && !byIndex.ended && (id == null || byIndex.id == null);
    if (sameCall) {
      return byIndex;
    }
    if (id == null && index == null) {
      return null;
    }
    Call call = new Call(calls.size());
    calls.add(call);
    if (index != null) {
      callsByIndex.put(index, call);
    }
    lastCall = call;
    return call;
  }

  private void endOpenCalls() {
    for (Call call : calls) {
      if (call.ended) {
        continue;
      }
      if (!call.started) {
        // a call whose id never came: give it one so it can still be answered
        call.id = call.id != null ? call.id : "call_" + call.ordinal;
        call.name = call.name != null ? call.name : "";
        call.started = true;
        sink.accept(new ModelEvent.ToolCallStart(call.ordinal, call.id, call.name));
        for (String pending : call.pendingFragments) {
          sink.accept(new ModelEvent.ToolCallDelta(call.ordinal, call.id, pending));
        }
        call.pendingFragments.clear();
      }
      JsonObject arguments;
      try {
        arguments = ToolArguments.parse(call.arguments.toString());
      } catch (IllegalArgumentException e) {
        fail(new ModelEvent.Error("invalid_tool_arguments", call.name + ": " + e.getMessage(), false));
        return;
      }
      call.ended = true;
      sink.accept(new ModelEvent.ToolCallEnd(call.ordinal, call.id, call.name, arguments));
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
    boolean anyCompleted = calls.stream().anyMatch(c -> c.ended);
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
